import { monitorTarget } from "@vigil/api-contract";
import { type ChannelView, getChannel, listDeliveries, listMonitors, NotFoundError } from "@vigil/core";
import { ChevronLeft, ScrollText } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { deleteChannelAction } from "../../../../../features/channels/actions";
import { ChannelState, OutcomeBadge } from "../../../../../features/channels/channel-badges";
import { EnableToggle, MonitorPicker, SendTest } from "../../../../../features/channels/channel-controls";
import { ChannelForm } from "../../../../../features/channels/channel-form";
import { KindLabel } from "../../../../../features/channels/channel-kind";
import { formValues, kindSpec } from "../../../../../features/channels/channel-model";
import { getDb } from "../../../../../lib/db";
import { ago, dateTime } from "../../../../../lib/format";
import { memberOf } from "../../../../../lib/session";
import { ConfirmAction } from "../../../../../ui/confirm";
import { Badge, Card, CardHeader, CardSection, Empty, Notice, PageHeader, Table, td } from "../../../../../ui/ui";

export const metadata = { title: "Notification channel" };

/** "in 4 s", "in 2 min", or "due" once the time has passed. */
function until(at: number, now: number): string {
  const s = Math.round((at - now) / 1000);
  if (s <= 0) return "due";
  if (s < 60) return `in ${s} s`;
  if (s < 3600) return `in ${Math.round(s / 60)} min`;
  return `in ${Math.round(s / 3600)} h`;
}

const EVENT_TONE = { error: "red", degraded: "amber", recovered: "green" } as const;

export default async function ChannelPage({
  params,
  searchParams,
}: {
  params: Promise<{ ws: string; id: string }>;
  searchParams: Promise<{ event?: string; created?: string }>;
}) {
  const p = await params;
  const q = await searchParams;
  const m = await memberOf(p.ws);
  const wsId = m.workspace.id;
  if (!/^\d{1,15}$/.test(p.id)) notFound();
  const id = Number(p.id);
  const eventId = q.event && /^\d{1,15}$/.test(q.event) ? Number(q.event) : undefined;
  const db = getDb();
  let channel: ChannelView;
  try {
    channel = await getChannel(db, wsId, id);
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
  const [monitors, deliveries] = await Promise.all([listMonitors(db, wsId), listDeliveries(db, wsId, id, 100, eventId)]);
  const spec = kindSpec(channel.kind);
  const now = Date.now();
  const base = `/w/${wsId}/notifications/${id}`;
  const picker = monitors.map((x) => ({ id: x.id, name: x.name, url: monitorTarget({ kind: x.kind, ...x.request }), tags: x.tags }));
  const filtered = eventId !== undefined ? deliveries[0] : undefined;
  // Newest first: the first row of an event is its latest state; an earlier "retrying" was retried since.
  const latestOf = new Map<number, number>();
  for (const d of deliveries) if (!latestOf.has(d.eventId)) latestOf.set(d.eventId, d.id);
  const superseded = (d: { id: number; eventId: number }) => latestOf.get(d.eventId) !== d.id;
  return (
    <>
      <Link href={`/w/${wsId}/notifications`} className="mb-3 inline-flex items-center gap-1 text-sm text-zinc-500 hover:text-zinc-900">
        <ChevronLeft className="size-4" aria-hidden /> Notifications
      </Link>
      <PageHeader
        title={channel.name}
        description={
          <span className="mt-1 inline-flex flex-wrap items-center gap-3" data-testid="channel-state">
            <KindLabel kind={channel.kind} />
            <ChannelState enabled={channel.enabled} failingSince={channel.failingSince} last={deliveries[0]} />
            {channel.failingSince ? <span className="text-xs text-red-700">failing since {dateTime(channel.failingSince)}</span> : null}
          </span>
        }
        action={
          <div className="flex items-start gap-2">
            <EnableToggle workspaceId={wsId} id={id} enabled={channel.enabled} />
            <ConfirmAction
              small={false}
              action={deleteChannelAction}
              fields={{ workspaceId: String(wsId), id: String(id) }}
              label="Delete"
              title={`Delete “${channel.name}”?`}
              description="Its monitors stop alerting through it and its delivery log is removed. This cannot be undone."
              confirm="Delete channel"
            />
          </div>
        }
      />
      {q.created ? (
        <div className="mb-6">
          <Notice tone="indigo">Channel created. Send it a test, then attach the monitors it should alert for.</Notice>
        </div>
      ) : null}
      {!channel.enabled ? (
        <div className="mb-6">
          <Notice>This channel is disabled: its monitors' alerts are not sent through it until you enable it.</Notice>
        </div>
      ) : null}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid min-w-0 content-start gap-6">
          <CardSection title="Send a test" description="A test message through the saved settings, on the same path alerts take.">
            <SendTest workspaceId={wsId} id={id} />
          </CardSection>
          <Card>
            <CardHeader title="Settings" description="Secrets are write-only: shown as set or not set. Leave one blank to keep it." />
            <div className="px-5 py-5">
              <ChannelForm
                workspaceId={wsId}
                spec={spec}
                channel={{ id, name: channel.name, values: formValues(spec, channel.config), timeoutMs: channel.timeoutMs }}
              />
            </div>
          </Card>
        </div>
        <Card className="self-start">
          <CardHeader
            title="Monitors"
            description={`${channel.monitors.length} attached: their status changes alert through this channel.`}
          />
          <MonitorPicker workspaceId={wsId} id={id} monitors={picker} attached={channel.monitors} />
        </Card>
      </div>
      <Card className="mt-6">
        <CardHeader
          title="Delivery log"
          description={
            filtered ? (
              <>
                Attempts for {filtered.monitorName}'s {filtered.status} at {dateTime(filtered.cronTimestamp)} ·{" "}
                <Link href={base} className="text-indigo-700 hover:underline">
                  show all events
                </Link>
              </>
            ) : (
              "Every attempt to deliver an alert, newest first. Retryable failures are retried with backoff."
            )
          }
        />
        {deliveries.length === 0 ? (
          <Empty icon={<ScrollText className="size-5" aria-hidden />} title="No deliveries yet">
            Alerts appear here when an attached monitor fails, degrades or recovers. Test messages are not logged.
          </Empty>
        ) : (
          <div data-testid="delivery-log">
            <Table head={["When", "Event", "Attempt", "Outcome", "Response", "Next retry", "Detail"]}>
              {deliveries.map((d) => (
                <tr key={d.id}>
                  <td className={`${td} whitespace-nowrap text-zinc-600`} title={dateTime(d.createdAt)}>
                    {ago(d.createdAt, now)}
                  </td>
                  <td className={td}>
                    <Link href={`${base}?event=${d.eventId}`} className="inline-flex items-center gap-2 hover:underline">
                      <span className="font-medium">{d.monitorName}</span>
                      <Badge tone={EVENT_TONE[d.status]}>{d.status}</Badge>
                    </Link>
                    <span className="block text-xs text-zinc-500">slot {dateTime(d.cronTimestamp)}</span>
                  </td>
                  <td className={`${td} tabular-nums`}>#{d.attempt}</td>
                  <td className={td}>
                    {d.outcome === "retrying" && superseded(d) ? <Badge tone="zinc">retried</Badge> : <OutcomeBadge outcome={d.outcome} />}
                  </td>
                  <td className={`${td} font-mono text-xs`}>{d.responseCode ?? "—"}</td>
                  <td className={`${td} whitespace-nowrap text-zinc-600`}>
                    {d.outcome === "retrying" && d.nextRetryAt && !superseded(d) ? (
                      <span title={dateTime(d.nextRetryAt)}>{until(d.nextRetryAt, now)}</span>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td className={`${td} max-w-xs truncate font-mono text-xs text-zinc-600`} title={d.error ?? undefined}>
                    {d.error ?? ""}
                  </td>
                </tr>
              ))}
            </Table>
          </div>
        )}
      </Card>
    </>
  );
}
