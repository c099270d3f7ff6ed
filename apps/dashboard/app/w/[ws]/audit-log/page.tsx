import { auditFacets, limitsOf, listMembers, searchAuditLog } from "@vigil/core";
import { FileClock, Lock } from "lucide-react";
import Link from "next/link";
import { getDb } from "../../../../lib/db";
import { dateTime } from "../../../../lib/format";
import { memberOf, type WorkspacePageProps } from "../../../../lib/session";
import { buttonClass, Card, CardHeader, Code, Empty, PageHeader, Select, Table, td } from "../../../../ui/ui";

export const metadata = { title: "Audit log" };

const PAGE = 25;

export default async function AuditLog({ params, searchParams }: WorkspacePageProps) {
  const m = await memberOf((await params).ws);
  const sp = await searchParams;
  const id = m.workspace.id;
  const header = <PageHeader title="Audit log" description="Every change and test run in this workspace: who did what, and when." />;
  if (!limitsOf(m.workspace).limits["audit-log"]) {
    return (
      <>
        {header}
        <Card>
          <Empty icon={<Lock className="size-5" aria-hidden />} title="The audit log is not enabled for this workspace">
            The limit <Code>audit-log</Code> is off. The operator turns it on by setting the workspace's limits; changes are recorded either
            way.
          </Empty>
        </Card>
      </>
    );
  }
  const db = getDb();
  const before = sp.before && /^\d{1,15}$/.test(sp.before) ? Number(sp.before) : undefined;
  const actor = sp.actor || undefined;
  const action = sp.action || undefined;
  const [{ entries, nextBefore }, facets, members] = await Promise.all([
    searchAuditLog(db, id, { actor, action, before, limit: PAGE }),
    auditFacets(db, id),
    listMembers(db, id),
  ]);
  // People by email rather than by id; anyone no longer a member keeps the id.
  const emails = new Map(members.map((p) => [p.userId, p.email ?? p.userId]));
  const who = (a: string) => (a.startsWith("user:") ? (emails.get(a.slice(5)) ?? a) : a);
  const qs = (extra: Record<string, string | number | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ actor, action, ...extra })) if (v !== undefined && v !== "") p.set(k, String(v));
    const s = p.toString();
    return s ? `?${s}` : "";
  };
  return (
    <>
      {header}
      <Card>
        <CardHeader title="Entries" description="Newest first." />
        <form className="flex flex-wrap items-end gap-3 border-b border-zinc-100 px-5 py-3" method="get">
          <label htmlFor="actor" className="grid gap-1 text-xs text-zinc-500">
            Actor
            <Select id="actor" name="actor" defaultValue={actor ?? ""} className="w-56">
              <option value="">Anyone</option>
              {facets.actors.map((a) => (
                <option key={a} value={a}>
                  {who(a)}
                </option>
              ))}
            </Select>
          </label>
          <label htmlFor="action" className="grid gap-1 text-xs text-zinc-500">
            Action
            <Select id="action" name="action" defaultValue={action ?? ""} className="w-56">
              <option value="">Any action</option>
              {facets.actions.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </Select>
          </label>
          <button type="submit" className={buttonClass("secondary")}>
            Filter
          </button>
          {actor || action ? (
            <Link href={`/w/${id}/audit-log`} className="text-sm text-indigo-600 hover:underline">
              Clear
            </Link>
          ) : null}
        </form>
        {entries.length === 0 ? (
          <Empty icon={<FileClock className="size-5" aria-hidden />} title="Nothing here">
            {actor || action ? "No entry matches these filters." : "No changes recorded yet."}
          </Empty>
        ) : (
          <Table head={["When", "Actor", "Action", "Target", "Details"]}>
            {entries.map((e) => (
              <tr key={e.id}>
                <td className={`${td} whitespace-nowrap text-zinc-600`}>{dateTime(e.createdAt)}</td>
                <td className={`${td} text-zinc-700`}>{who(e.actor)}</td>
                <td className={`${td} whitespace-nowrap`}>
                  <Code>{e.action}</Code>
                </td>
                <td className={`${td} text-zinc-600`}>
                  {e.targetType}
                  {e.targetId ? ` ${e.targetType === "user" ? who(`user:${e.targetId}`) : e.targetId}` : ""}
                </td>
                <td
                  className={`${td} max-w-72 truncate font-mono text-xs text-zinc-500`}
                  title={e.metadata ? JSON.stringify(e.metadata) : undefined}
                >
                  {e.metadata ? JSON.stringify(e.metadata) : ""}
                </td>
              </tr>
            ))}
          </Table>
        )}
        <div className="flex justify-between border-t border-zinc-100 px-5 py-3">
          {before ? (
            <Link href={`/w/${id}/audit-log${qs({})}`} className={buttonClass("secondary")}>
              Newest
            </Link>
          ) : (
            <span />
          )}
          {nextBefore ? (
            <Link href={`/w/${id}/audit-log${qs({ before: nextBefore })}`} className={buttonClass("secondary")}>
              Older
            </Link>
          ) : null}
        </div>
      </Card>
    </>
  );
}
