"use client";
import { Sparkles } from "lucide-react";
import { Segmented } from "../../../ui/segmented";
import { buttonClass, Field, Select } from "../../../ui/ui";
import { type Draft, jsonRpcPreset, METHODS } from "./draft";
import { HeaderRows } from "./header-rows";
import { CodeArea, type FormKit, Section } from "./parts";

/** heartbeat: the period or cron schedule the job pings on, and the grace. */
export function HeartbeatSchedule({ d, set, text }: FormKit) {
  return (
    <Section
      title="Schedule"
      description="Your job calls its ping URL (shown once the monitor is saved); silence past the grace time is the failure."
    >
      <Segmented
        legend="Expect a ping"
        name="hbMode"
        options={[
          ["period", "Every period"],
          ["cron", "On a cron schedule"],
        ]}
        value={d.hbMode}
        onChange={(hbMode) => set({ hbMode })}
      />
      {d.hbMode === "period" ? (
        <div className="grid gap-4 sm:grid-cols-2">
          {text("period", "Period", { hint: "How often the job runs: 30s, 5m, 1h, 1d (1s to 31d).", placeholder: "1h" })}
          {text("grace", "Grace", { hint: "How late a ping may be before the monitor is down.", placeholder: "5m" })}
        </div>
      ) : (
        <div className="grid gap-4 sm:grid-cols-3">
          {text("cron", "Cron", { hint: "5 fields: minute hour day month weekday.", placeholder: "30 2 * * *", mono: true })}
          {text("timezone", "Time zone", { hint: "IANA name, e.g. Europe/Berlin or UTC.", placeholder: "UTC", mono: true })}
          {text("grace", "Grace", { hint: "How late a ping may be before the monitor is down.", placeholder: "15m" })}
        </div>
      )}
    </Section>
  );
}

/** http: method, URL, headers, body, redirects. */
export function HttpRequest({
  d,
  set,
  f,
  text,
  reset,
  movedFrom,
  initial,
}: FormKit & {
  /** Replaces the whole draft (a preset). */
  reset: (to: (d: Draft) => Draft) => void;
  movedFrom: (stored: string, now: string) => { from: string; to: string } | null;
  initial: Draft;
}) {
  return (
    <Section title="Request" description="Sent from each private location at every check.">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-xs text-zinc-500">Preset:</span>
        <button type="button" className={buttonClass("secondary", "h-8 text-xs")} onClick={() => reset(jsonRpcPreset)}>
          <Sparkles className="size-3.5" aria-hidden /> JSON-RPC 2.0 ping
        </button>
      </div>
      <div className="grid gap-4 sm:grid-cols-[9rem_1fr]">
        <Field label="Method" name="method" error={f("method")}>
          <Select id="method" name="method" value={d.method} onChange={(e) => set({ method: e.target.value })} invalid={!!f("method")}>
            {METHODS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </Select>
        </Field>
        {text("url", "URL", { type: "url", placeholder: "https://api.example.com/health", mono: true })}
      </div>
      <HeaderRows
        prefix="header"
        label="Headers"
        add="Add header"
        rows={d.headers}
        onChange={(headers) => set({ headers })}
        moved={movedFrom(initial.url, d.url)}
        error={f("headers")}
      />
      <Field label="Body" name="body" error={f("body")} hint="Sent as is (up to 64 KiB).">
        <CodeArea id="body" name="body" value={d.body} onChange={(e) => set({ body: e.target.value })} invalid={!!f("body")} />
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          name="followRedirects"
          checked={d.followRedirects}
          onChange={(e) => set({ followRedirects: e.target.checked })}
        />
        Follow redirects
      </label>
    </Section>
  );
}

/** tcp: host and port. */
export function TcpTarget({ text }: FormKit) {
  return (
    <Section title="Target" description="A TCP connection is opened; the check passes when it connects.">
      <div className="grid gap-4 sm:grid-cols-[1fr_9rem]">
        {text("host", "Host", { placeholder: "db.internal", mono: true })}
        {text("port", "Port", { placeholder: "5432", inputMode: "numeric" })}
      </div>
    </Section>
  );
}
