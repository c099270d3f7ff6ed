import { pingUrlOf } from "@vigil/api-contract";
import { canManage, limitsOf } from "@vigil/core";
import { LIMIT_KEYS, type LimitKey, type Limits, planExpired } from "@vigil/limits";
import { PingAutoCreateForm, RotatePingKeyForm, SecondFactorRuleForm } from "../../../../features/account/account-forms";
import { RenameWorkspaceForm } from "../../../../features/settings/rename-workspace-form";
import { getEnv } from "../../../../lib/env";
import { unixDate } from "../../../../lib/format";
import { memberOf } from "../../../../lib/session";
import { limitsStatement } from "../../../../ui/banner";
import { Snippet } from "../../../../ui/copy-button";
import { Badge, Card, CardHeader, CardSection, PageHeader, Table, td } from "../../../../ui/ui";

export const metadata = { title: "Settings" };

const LABELS: Record<LimitKey, string> = {
  monitors: "Monitors",
  periodicity: "Check frequencies",
  "multi-region": "Several regions per monitor",
  "data-retention": "Results kept for",
  "status-pages": "Status pages",
  maintenance: "Maintenance windows",
  "status-subscribers": "Status page subscribers",
  "custom-domain": "Custom domains",
  "password-protection": "Password-protected pages",
  "white-label": "White label",
  notifications: "Notifications",
  sms: "SMS alerts",
  "incident-alerting": "Incident alerting",
  "notification-channels": "Notification channels",
  members: "Members",
  "audit-log": "Audit log",
  "private-locations": "Private locations",
};

function value(v: Limits[LimitKey]) {
  if (typeof v === "boolean") return <Badge tone={v ? "green" : "zinc"}>{v ? "yes" : "no"}</Badge>;
  if (Array.isArray(v)) return v.join(", ") || "none";
  if (typeof v === "number") return v >= 1_000_000 ? "unlimited" : v.toLocaleString("en");
  return v;
}

function pingByName(key: string): string {
  getEnv();
  return pingUrlOf(key);
}

export default async function Settings({ params }: { params: Promise<{ ws: string }> }) {
  const m = await memberOf((await params).ws);
  const ws = m.workspace;
  const { limits } = limitsOf(ws);
  const ended = planExpired(ws);
  const state = ws.limits === null ? "restricted (no limits set)" : ended ? "restricted (plan ended)" : "limits set by the operator";
  return (
    <>
      <PageHeader title="Settings" description={`Workspace ${ws.id}`} />
      <CardSection
        title="Workspace name"
        description={canManage(m.role) ? undefined : "Only owners and admins can rename it."}
        className="mb-6"
      >
        <RenameWorkspaceForm workspaceId={ws.id} name={ws.name ?? ""} disabled={!canManage(m.role)} />
      </CardSection>
      <Card className="mb-6">
        <CardHeader
          title="Second factor"
          description={
            m.role === "owner"
              ? "When on, members without an authenticator app are asked to set one up before they can use this workspace."
              : `${ws.requireSecondFactor ? "Required" : "Not required"} for members. Only owners change it.`
          }
        />
        {m.role === "owner" ? (
          <div className="px-5 py-4">
            <SecondFactorRuleForm workspaceId={ws.id} required={ws.requireSecondFactor} />
          </div>
        ) : null}
      </Card>
      <Card className="mb-6">
        <CardHeader
          title="Heartbeat pings by name"
          description={
            m.role === "viewer"
              ? "Hidden from viewers: the ping key can raise or silence any heartbeat's alerts."
              : "For scripts that name their jobs: one workspace key, then the heartbeat's entry key. Keep the key secret like a ping URL."
          }
        />
        {m.role === "viewer" ? null : (
          <div className="grid gap-4 px-5 py-4">
            {ws.pingKey ? (
              <>
                <Snippet title="Ping URL by name" value={`${pingByName(ws.pingKey)}/<entry key>`} />
                <p className="text-sm text-zinc-600">
                  Add <code className="font-mono text-xs">/start</code>, <code className="font-mono text-xs">/fail</code> or{" "}
                  <code className="font-mono text-xs">/&lt;exit code&gt;</code> as with a heartbeat&apos;s own URL. An entry key with spaces
                  or slashes is percent-encoded.
                </p>
              </>
            ) : (
              <p className="text-sm text-zinc-600">No ping key yet: heartbeats answer only on their own URLs.</p>
            )}
            {canManage(m.role) ? (
              <>
                <RotatePingKeyForm workspaceId={ws.id} exists={ws.pingKey !== null} />
                <PingAutoCreateForm workspaceId={ws.id} on={ws.pingAutoCreate} />
              </>
            ) : (
              <p className="text-xs text-zinc-500">Owners and admins make or replace the key and allow pings to create heartbeats.</p>
            )}
          </div>
        )}
      </Card>
      <Card className="mb-6">
        <CardHeader title="Plan" description="Set by the operator of this Vigil server." />
        <dl className="grid grid-cols-2 gap-px bg-zinc-100 sm:grid-cols-4">
          {[
            ["Plan", ws.plan ?? "none"],
            ["Paid until", unixDate(ws.paidUntil)],
            ["Ends at", ws.endsAt ? unixDate(ws.endsAt) : "no end"],
            ["Limits", state],
          ].map(([k, v]) => (
            <div key={k} className="bg-white px-5 py-3">
              <dt className="text-xs text-zinc-500">{k}</dt>
              <dd className={`mt-0.5 text-sm font-medium ${k === "Limits" && (ws.limits === null || ended) ? "text-amber-700" : ""}`}>
                {v}
              </dd>
            </div>
          ))}
        </dl>
      </Card>
      <Card>
        <CardHeader title="Limits in force" description="What this workspace may use right now." />
        <Table head={["Limit", "Key", "Value"]}>
          {LIMIT_KEYS.map((k) => (
            <tr key={k}>
              <td className={td}>{LABELS[k]}</td>
              <td className={`${td} font-mono text-xs text-zinc-500`}>{k}</td>
              <td className={td}>{value(limits[k])}</td>
            </tr>
          ))}
        </Table>
        <div className="border-t border-zinc-100 px-5 py-4">
          <p className="mb-2 text-sm text-zinc-600">
            The operator changes limits with a statement against the database (keys left out stay restricted):
          </p>
          <Snippet title="Operator" value={limitsStatement(ws.id)} />
        </div>
      </Card>
    </>
  );
}
