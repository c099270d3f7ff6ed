import { lastDeliveries, listChannels, listMonitors } from "@vigil/core";
import { BellRing, Plus } from "lucide-react";
import Link from "next/link";
import { ChannelState, OutcomeBadge } from "../../../../features/channels/channel-badges";
import { KindLabel } from "../../../../features/channels/channel-kind";
import { getDb } from "../../../../lib/db";
import { ago } from "../../../../lib/format";
import { memberOf } from "../../../../lib/session";
import { buttonClass, Card, CardHeader, Empty, PageHeader, Table, td } from "../../../../ui/ui";

export const metadata = { title: "Notifications" };

export default async function Notifications({ params }: { params: Promise<{ ws: string }> }) {
  const m = await memberOf((await params).ws);
  const wsId = m.workspace.id;
  const db = getDb();
  const [channels, last, monitors] = await Promise.all([listChannels(db, wsId), lastDeliveries(db, wsId), listMonitors(db, wsId)]);
  const monitorName = new Map(monitors.map((x) => [x.id, x.name]));
  const now = Date.now();
  const failing = channels.filter((c) => c.failingSince !== null || last.get(c.id)?.outcome === "failed").length;
  return (
    <>
      <PageHeader
        title="Notifications"
        description="Where alerts go when a monitor fails or recovers: Slack, email, PagerDuty, webhooks and more."
        action={
          m.role === "viewer" ? undefined : (
            <Link href={`/w/${wsId}/notifications/new`} className={buttonClass()}>
              <Plus className="size-4" aria-hidden /> New channel
            </Link>
          )
        }
      />
      <Card>
        <CardHeader
          title="Channels"
          description={`${channels.length} channel${channels.length === 1 ? "" : "s"}${failing ? `, ${failing} failing` : ""}`}
        />
        {channels.length === 0 ? (
          <Empty icon={<BellRing className="size-5" aria-hidden />} title="No notification channels yet">
            Add one, send it a test, then attach it to the monitors it should alert for.{" "}
            <Link href={`/w/${wsId}/notifications/new`} className="font-medium text-indigo-700 hover:underline">
              New channel
            </Link>
          </Empty>
        ) : (
          <Table head={["Name", "Kind", "State", "Monitors", "Last delivery"]}>
            {channels.map((c) => {
              const d = last.get(c.id);
              const names = c.monitors.map((id) => monitorName.get(id)).filter(Boolean);
              return (
                <tr key={c.id} data-testid={`channel-${c.id}`}>
                  <td className={td}>
                    <Link href={`/w/${wsId}/notifications/${c.id}`} className="font-medium text-indigo-700 hover:underline">
                      {c.name}
                    </Link>
                  </td>
                  <td className={td}>
                    <KindLabel kind={c.kind} />
                  </td>
                  <td className={td}>
                    <ChannelState enabled={c.enabled} failingSince={c.failingSince} last={d} />
                  </td>
                  <td className={`${td} text-zinc-600`} title={names.join(", ")}>
                    {names.length === 0 ? (
                      <span className="text-zinc-400">none</span>
                    ) : (
                      <>
                        {names.slice(0, 2).join(", ")}
                        {names.length > 2 ? ` +${names.length - 2}` : ""}
                      </>
                    )}
                  </td>
                  <td className={`${td} whitespace-nowrap text-zinc-600`}>
                    {d ? (
                      <span className="inline-flex items-center gap-2">
                        <OutcomeBadge outcome={d.outcome} />
                        {d.responseCode ? <span className="font-mono text-xs">{d.responseCode}</span> : null}
                        {ago(d.createdAt, now)}
                      </span>
                    ) : (
                      <span className="text-zinc-400">never</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </Card>
    </>
  );
}
