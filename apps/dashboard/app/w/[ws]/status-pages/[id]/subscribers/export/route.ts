import { ForbiddenError, listSubscribers, NotFoundError } from "@vigil/core";
import { paramId } from "../../../../../../../features/status-pages/status-model";
import { getDb } from "../../../../../../../lib/db";
import { currentUser, downloadMember, SecondFactorRequired } from "../../../../../../../lib/session";

export const dynamic = "force-dynamic";

/** A cell as spreadsheets read it: quoted, and never starting like a formula. */
const cell = (v: string) => `"${(/^[=+\-@\t\r]/.test(v) ? `'${v}` : v).replaceAll('"', '""')}"`;
const iso = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString());

/** The page's subscribers as CSV, for the workspace's owners and admins (a member: 403, anyone else: 404). */
export async function GET(_req: Request, { params }: { params: Promise<{ ws: string; id: string }> }) {
  const { ws, id } = await params;
  const user = await currentUser();
  if (!user) return new Response("Sign in first.\n", { status: 401, headers: { "content-type": "text/plain" } });
  try {
    await downloadMember(paramId(ws), user.id, "admin");
    const rows = await listSubscribers(getDb(), paramId(ws), paramId(id));
    const csv = [
      // channel: email, webhook or slack (an endpoint's URL is its credential and stays out; its email is empty).
      "email,channel,state,subscribed_at,confirmed_at",
      ...rows.map((s) => [cell(s.email), s.channel, s.state, iso(s.createdAt), iso(s.confirmedAt)].join(",")),
    ].join("\r\n");
    return new Response(`${csv}\r\n`, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="subscribers-page-${paramId(id)}.csv"`,
        "cache-control": "private, no-store",
      },
    });
  } catch (err) {
    if (err instanceof SecondFactorRequired) return err.response();
    if (err instanceof NotFoundError) return new Response("Not found.\n", { status: 404, headers: { "content-type": "text/plain" } });
    if (err instanceof ForbiddenError) {
      return new Response("Only owners and admins can export subscribers' e-mail addresses.\n", {
        status: 403,
        headers: { "content-type": "text/plain" },
      });
    }
    throw err;
  }
}
