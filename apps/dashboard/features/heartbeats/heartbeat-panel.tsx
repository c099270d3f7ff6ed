// A heartbeat's page body: where to ping, what is expected next, and what arrived (timeline + ping log).
import type { HeartbeatDetails, PingLogEntry } from "@vigil/core";
import { Inbox, TriangleAlert } from "lucide-react";
import { ago, dateTime, duration } from "../../lib/format";
import { CopyButton, Snippet } from "../../ui/copy-button";
import { Badge, Card, CardHeader, cx, Empty, Notice, Table, td } from "../../ui/ui";
import { heartbeatFacts, STATE_WORD } from "./heartbeat-facts";
import { pingSnippets } from "./heartbeat-snippets";

const STATE_TONE = { new: "zinc", up: "green", running: "indigo", late: "amber", down: "red", paused: "zinc" } as const;
const STATE_HINT: Record<HeartbeatDetails["state"], string> = {
  new: "Waiting for the first ping.",
  up: "Pinged on time.",
  running: "A run has started and not finished yet.",
  late: "The expected ping has not come; within the grace time it is not down yet.",
  down: "No ping by the deadline, or the job reported a failure.",
  paused: "Pings are refused and nothing alerts until resumed.",
};
const PING_TONE = { success: "green", start: "indigo", fail: "red" } as const;
const TICK = { success: "bg-emerald-500", start: "bg-indigo-400", fail: "bg-red-500" } as const;

export function HeartbeatState({ state }: { state: HeartbeatDetails["state"] }) {
  return <Badge tone={STATE_TONE[state]}>{STATE_WORD[state]}</Badge>;
}

/** The list's status cell for a heartbeat: down (its status), late (past the expected ping), or waiting for the first. */
export function HeartbeatGlance({ health, state }: { health: string; state: "late" | "new" | null }) {
  if (health === "error") return <HeartbeatState state="down" />;
  if (health === "paused") return <HeartbeatState state="paused" />;
  return <HeartbeatState state={state ?? "up"} />;
}

const pingLabel = (p: PingLogEntry) => (p.kind === "fail" && p.exitCode !== null ? `exit ${p.exitCode}` : p.kind);

/** Pings on a time axis from the oldest shown to now; a passed deadline is marked, gaps and failures stand out. */
function Timeline({ pings, now, deadlineAt }: { pings: PingLogEntry[]; now: number; deadlineAt: number | null }) {
  const start = Math.min(...pings.map((p) => p.at), now - 60_000);
  const end = now + (now - start) * 0.02;
  const x = (t: number) => `${(((t - start) / (end - start || 1)) * 100).toFixed(2)}%`;
  const passed = deadlineAt !== null && deadlineAt <= now && deadlineAt > start;
  return (
    <div className="px-5 py-4">
      <div className="relative h-10 rounded-md bg-zinc-50 ring-1 ring-zinc-200" role="img" aria-label={`${pings.length} pings over time`}>
        {pings.map((p) => (
          <span
            key={p.id}
            title={`${pingLabel(p)} · ${dateTime(p.at)}`}
            className={cx("absolute top-1.5 bottom-1.5 w-1 -translate-x-1/2 rounded-full", TICK[p.kind])}
            style={{ left: x(p.at) }}
          />
        ))}
        {passed ? (
          <span
            className="absolute top-0 bottom-0 w-px border-l border-dashed border-red-500"
            style={{ left: x(deadlineAt) }}
            title="deadline"
          />
        ) : null}
      </div>
      <div className="mt-1.5 flex justify-between gap-4 text-xs text-zinc-500">
        <span>{dateTime(start)}</span>
        <span className="flex flex-wrap gap-3">
          <Legend className={TICK.success} label="success" />
          <Legend className={TICK.start} label="start" />
          <Legend className={TICK.fail} label="failure" />
          {passed ? (
            <span className="inline-flex items-center gap-1">
              <span className="h-3 w-px border-l border-dashed border-red-500" />
              missed deadline
            </span>
          ) : null}
        </span>
        <span>now</span>
      </div>
    </div>
  );
}

function Legend({ className, label }: { className: string; label: string }) {
  return (
    <span className="inline-flex items-center gap-1">
      <span className={cx("h-3 w-1 rounded-full", className)} />
      {label}
    </span>
  );
}

function Stat({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <Card className="px-4 py-3">
      <p className="truncate text-xs text-zinc-500">{label}</p>
      <p className="mt-1 text-lg font-semibold tabular-nums text-zinc-900">{value}</p>
      {detail ? <p className="truncate text-xs text-zinc-500">{detail}</p> : null}
    </Card>
  );
}

export function HeartbeatPanel({
  hb,
  schedule,
  monitorKey,
  cron,
  now,
  canPing,
  byName,
}: {
  hb: HeartbeatDetails;
  schedule: string;
  monitorKey: string | null;
  cron?: string;
  now: number;
  /** Viewers see the heartbeat, never its URL: a ping can raise or silence its alert. */
  canPing: boolean;
  /** The URL by name (workspace ping key and entry key), when the workspace has a ping key. */
  byName: string | null;
}) {
  const snippets = pingSnippets(hb.pingUrl, monitorKey, cron);
  const facts = heartbeatFacts(hb, schedule, now);
  return (
    <>
      {!hb.receiverUp ? (
        <div className="mb-4">
          <Notice tone="red">
            <TriangleAlert className="mr-1 inline size-4" aria-hidden />
            The ping server has not been heard from lately: no ping can be stored, and deadlines wait for its return instead of alerting.
          </Notice>
        </div>
      ) : null}
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Card className="px-4 py-3">
          <p className="text-xs text-zinc-500">State</p>
          <p className="mt-1.5" data-testid="heartbeat-state">
            <HeartbeatState state={hb.state} />
          </p>
          <p className="mt-1 text-xs text-zinc-500">{STATE_HINT[hb.state]}</p>
        </Card>
        <Stat label="Last ping" value={ago(hb.lastPingAt, now)} detail={hb.lastPingAt ? dateTime(hb.lastPingAt) : undefined} />
        <Stat label="Next ping expected" {...facts.nextPing} />
        <Stat label="Down after" {...facts.downAfter} />
      </div>

      {canPing ? (
        <Card className="mb-6">
          <CardHeader
            title="Ping URL"
            description="Call it when the job succeeds; GET, POST or HEAD. The URL is the secret: keep it out of public logs."
          />
          <div className="grid gap-4 px-5 py-4">
            <div className="flex flex-wrap items-center gap-2">
              <code
                data-copy={hb.pingUrl.slice(0, 40)}
                data-testid="ping-url"
                className="min-w-0 flex-1 truncate rounded-md bg-zinc-100 px-3 py-1.5 font-mono text-sm"
              >
                {hb.pingUrl}
              </code>
              <CopyButton value={hb.pingUrl} label="Copy URL" />
            </div>
            {byName ? (
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-sm text-zinc-600">By name:</span>
                <code
                  data-testid="ping-url-by-name"
                  className="min-w-0 flex-1 truncate rounded-md bg-zinc-100 px-3 py-1.5 font-mono text-sm"
                >
                  {byName}
                </code>
                <CopyButton value={byName} label="Copy" />
              </div>
            ) : null}
            <ul className="grid gap-1 text-sm text-zinc-600 sm:grid-cols-2">
              <li>
                <code className="font-mono text-xs">…/start</code> a run began (its duration is measured)
              </li>
              <li>
                <code className="font-mono text-xs">…/fail</code> the run failed
              </li>
              <li>
                <code className="font-mono text-xs">…/&lt;exit code&gt;</code> 0 is success, 1-255 a failure naming it
              </li>
              <li>A POST body (first 10 kB) is kept and sent with a failure alert</li>
            </ul>
            <details className="group">
              <summary className="cursor-pointer text-sm font-medium text-zinc-800">
                Snippets: curl, wget, PowerShell, systemd, Kubernetes
              </summary>
              <div className="mt-3 grid gap-3 lg:grid-cols-2">
                {snippets.map((s) => (
                  <Snippet key={s.title} title={s.title} value={s.value} />
                ))}
              </div>
            </details>
          </div>
        </Card>
      ) : (
        <Card className="mb-6">
          <CardHeader title="Ping URL" description="Hidden from viewers: a ping can raise or silence this heartbeat's alert." />
        </Card>
      )}

      <Card className="mb-6">
        <CardHeader title="Timeline" description="The newest pings, up to now." />
        {hb.pings.length === 0 ? (
          <Empty icon={<Inbox className="size-5" aria-hidden />} title="No pings yet">
            The deadline starts with the first ping.
          </Empty>
        ) : (
          <Timeline pings={hb.pings} now={now} deadlineAt={hb.deadlineAt} />
        )}
      </Card>

      <Card className="mb-6">
        <CardHeader title="Ping log" description="Newest first." />
        {hb.pings.length === 0 ? (
          <Empty icon={<Inbox className="size-5" aria-hidden />} title="No pings yet" />
        ) : (
          <Table head={["Time", "Kind", "Duration", "Source", "User agent", "Body"]}>
            {hb.pings.map((p) => (
              <tr key={p.id} data-testid="ping">
                <td className={`${td} whitespace-nowrap text-zinc-600`} title={dateTime(p.at)}>
                  {new Date(p.at).toISOString().slice(0, 19).replace("T", " ")}
                </td>
                <td className={td}>
                  <Badge tone={PING_TONE[p.kind]}>{pingLabel(p)}</Badge>
                </td>
                <td className={`${td} tabular-nums`}>
                  {p.durationMs === null ? "—" : p.durationMs < 1000 ? `${p.durationMs} ms` : duration(p.durationMs)}
                </td>
                <td className={`${td} font-mono text-xs`}>{p.sourceIp ?? "—"}</td>
                <td className={`${td} max-w-48 truncate text-xs text-zinc-600`} title={p.userAgent ?? undefined}>
                  {p.userAgent ?? "—"}
                </td>
                <td className={`${td} max-w-xs`}>
                  {p.body ? (
                    <pre
                      className="max-h-16 overflow-hidden font-mono text-xs whitespace-pre-wrap text-zinc-700"
                      title={p.body.slice(0, 2000)}
                    >
                      {p.body.slice(-300)}
                    </pre>
                  ) : (
                    <span className="text-zinc-400">—</span>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </>
  );
}
