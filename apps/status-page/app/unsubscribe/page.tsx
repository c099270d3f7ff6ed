import { unsubscribe } from "@vigil/core";
import { Notice } from "../../components/notice";
import { getDb } from "../../lib/data";

export const dynamic = "force-dynamic";
export const metadata = { title: "Unsubscribe", robots: { index: false } };

/** The link at the bottom of every subscriber mail: one click, no sign-in. */
export default async function Unsubscribe({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const raw = (await searchParams).token;
  const r = await unsubscribe(getDb(), typeof raw === "string" ? raw : "");
  if (!("email" in r))
    return (
      <Notice title="This link does not work" tone="bad">
        <p>The unsubscribe link is incomplete or wrong. Copy the whole link from the mail.</p>
      </Notice>
    );
  return (
    <Notice title={r.outcome === "unsubscribed" ? "You are unsubscribed" : "Already unsubscribed"} tone="ok">
      <p>
        <strong>{r.email}</strong> will get no more mail from this status page.
      </p>
    </Notice>
  );
}
