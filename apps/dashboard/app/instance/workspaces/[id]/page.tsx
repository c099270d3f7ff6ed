import { getInstanceWorkspace, listAuditLog } from "@vigil/core";
import { notFound } from "next/navigation";
import { n, StateBadge } from "../../../../features/instance/instance-bits";
import { ApplyPresetForm, LimitsForm, PlanForm, UserDisableForm } from "../../../../features/instance/instance-forms";
import { getDb } from "../../../../lib/db";
import { dateTime, unixDate } from "../../../../lib/format";
import { currentUser } from "../../../../lib/session";
import { Snippet } from "../../../../ui/copy-button";
import { Card, CardHeader, CardSection, PageHeader, Table, td } from "../../../../ui/ui";

export const dynamic = "force-dynamic";
export const metadata = { title: "Workspace · Instance" };

export default async function InstanceWorkspace({ params }: { params: Promise<{ id: string }> }) {
  const raw = (await params).id;
  const w = /^\d{1,15}$/.test(raw) ? await getInstanceWorkspace(getDb(), Number(raw)) : null;
  if (!w) notFound();
  const [me, audit] = await Promise.all([currentUser(), listAuditLog(getDb(), w.id, { limit: 10 })]);
  return (
    <>
      <PageHeader
        title={w.name ?? `Workspace ${w.id}`}
        description={
          <>
            Workspace {w.id} · {n(w.monitors)} monitor{w.monitors === 1 ? "" : "s"} · plan {w.plan ?? "none"} · paid until{" "}
            {unixDate(w.paidUntil)} · ends {w.endsAt ? unixDate(w.endsAt) : "never"} · <StateBadge state={w.state} />
          </>
        }
      />
      <CardSection
        title="Start from a preset"
        description="Sets all 17 keys to the preset's values; fine-tune them below."
        className="mb-6"
      >
        <ApplyPresetForm workspaceId={w.id} />
      </CardSection>
      <Card className="mb-6">
        <CardHeader
          title="Limits"
          description={w.storedLimits === null ? "Nothing is set: the workspace runs on restricted limits." : "The values in force now."}
        />
        <div className="px-5 py-4">
          <LimitsForm workspaceId={w.id} limits={w.limits} />
        </div>
        <div className="grid gap-2 border-t border-zinc-100 px-5 py-4 text-sm text-zinc-600">
          <p>The same from a terminal, with an instance-admin token:</p>
          <Snippet title="CLI" value={`pnpm exec vigil admin limits ${w.id} --preset team --set monitors=200`} />
        </div>
      </Card>
      <CardSection title="Plan" description="A plan whose paid-until or end date has passed runs on restricted limits." className="mb-6">
        <PlanForm workspaceId={w.id} plan={w.plan} paidUntil={w.paidUntil} endsAt={w.endsAt} />
      </CardSection>
      <Card className="mb-6">
        <CardHeader title="Members" description="Disabling a user ends their sessions and refuses their sign-in, in every workspace." />
        <Table head={["Member", "Role", ""]}>
          {w.members.map((m) => (
            <tr key={m.userId}>
              <td className={`${td} break-all`}>
                {m.email}
                {m.disabled ? <span className="ml-1 text-xs text-red-700">(disabled)</span> : null}
              </td>
              <td className={td}>{m.role}</td>
              <td className={`${td} text-right`}>
                {m.userId === me?.id ? (
                  <span className="text-xs text-zinc-500">you</span>
                ) : (
                  <UserDisableForm userId={m.userId} disabled={m.disabled} email={m.email ?? m.userId} />
                )}
              </td>
            </tr>
          ))}
        </Table>
      </Card>
      <Card>
        <CardHeader title="Recent changes" description="From the workspace's audit log." />
        <Table head={["When", "Who", "What"]}>
          {audit.map((a) => (
            <tr key={a.id}>
              <td className={`${td} whitespace-nowrap text-xs`}>{dateTime(a.createdAt)}</td>
              <td className={`${td} break-all font-mono text-xs`}>{a.actor}</td>
              <td className={`${td} font-mono text-xs`}>{a.action}</td>
            </tr>
          ))}
        </Table>
      </Card>
    </>
  );
}
