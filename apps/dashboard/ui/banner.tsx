import { instanceAdminContacts, type Workspace, workspaceState } from "@vigil/core";
import { TriangleAlert } from "lucide-react";
import Link from "next/link";
import { getDb } from "../lib/db";
import { getEnv } from "../lib/env";
import { isAdmin } from "../lib/instance";
import { rules } from "../lib/instance-rules";

/** The statement an operator runs against sqld to set limits (as the README shows), on the database's public URL. */
export function limitsStatement(workspaceId: number, databaseUrl = getEnv().PUBLIC_DATABASE_URL) {
  return `curl -s ${databaseUrl.replace(/\/+$/, "")}/ -H "Authorization: Bearer $(cat .data/db-token)" -H 'Content-Type: application/json' \\
  -d '{"statements": ["UPDATE workspace SET limits = '"'"'{\\"monitors\\":100,\\"private-locations\\":true,\\"members\\":\\"Unlimited\\",\\"audit-log\\":true}'"'"' WHERE id = ${workspaceId}"]}'`;
}

/** Shown on every page while the workspace runs on restricted limits: what that means and who lifts it. */
export async function RestrictedBanner({ ws, now = Date.now() }: { ws: Workspace; now?: number }) {
  const state = workspaceState(ws, now);
  if (state === "active") return null;
  const ended = state === "ended";
  const [admins, admin] = await Promise.all([instanceAdminContacts(getDb(), rules()), isAdmin()]);
  return (
    <div
      role="status"
      data-testid="restricted-banner"
      className="border-b border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 lg:px-8"
    >
      <div className="flex gap-3">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
        <div className="min-w-0 flex-1">
          <p className="font-medium">
            {ended
              ? `This workspace's plan${ws.plan ? ` (${ws.plan})` : ""} has ended, so it is restricted.`
              : "This workspace is restricted: no limits are set for it yet."}
          </p>
          <p className="mt-0.5 text-amber-800">
            Restricted means 1 monitor checked every 10 min or slower from one region, 1 status page, 1 notification channel, 1 member and
            no private locations (so no checks run). An instance admin lifts it
            {admins.length > 0 ? ` (${admins.join(", ")})` : ""}
            {admin ? (
              <>
                {" "}
                —{" "}
                <Link className="font-medium underline" href={`/instance/workspaces/${ws.id}`}>
                  you are one: set this workspace's limits
                </Link>
              </>
            ) : null}
            .
          </p>
          <details className="mt-1.5">
            <summary className="cursor-pointer font-medium text-amber-900 underline-offset-2 hover:underline">
              Show the operator's command and database statement
            </summary>
            <pre className="mt-2 overflow-x-auto rounded-md bg-amber-100/70 p-2.5 font-mono text-xs text-amber-950">
              pnpm exec vigil admin limits {ws.id} --preset team
            </pre>
            <pre className="mt-2 overflow-x-auto rounded-md bg-amber-100/70 p-2.5 font-mono text-xs text-amber-950">
              {limitsStatement(ws.id)}
            </pre>
            <p className="mt-1 text-xs text-amber-800">
              Keys left out keep their restricted value; docs/instance-admin.md lists all 17 keys and how to set the plan.
            </p>
          </details>
        </div>
      </div>
    </div>
  );
}

/** Shown to viewers on every page: what they can and cannot do, before they try. */
export function ViewerBanner() {
  return (
    <div
      role="status"
      data-testid="viewer-banner"
      className="border-b border-indigo-200 bg-indigo-50 px-4 py-2.5 text-sm text-indigo-900 lg:px-8"
    >
      You are a <strong>viewer</strong> here: you can read everything in this workspace, but not change, test or trigger anything. An owner
      or admin can give you the member role.
    </div>
  );
}
