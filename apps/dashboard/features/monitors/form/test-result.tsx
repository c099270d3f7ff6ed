import { CheckCircle2, CircleAlert, XCircle } from "lucide-react";
import { regionLabel } from "../../../lib/regions";
import { Badge, Card } from "../../../ui/ui";
import type { MonitorFormState } from "./draft";

const PHASES = [
  { key: "dns", label: "DNS", color: "bg-sky-400" },
  { key: "connect", label: "Connect", color: "bg-indigo-400" },
  { key: "tls", label: "TLS", color: "bg-violet-400" },
  { key: "firstByte", label: "First byte", color: "bg-amber-400" },
  { key: "download", label: "Download", color: "bg-emerald-400" },
] as const;

const ms = (v: number) => `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`;

/** What one "Test now" run found: status, latency, phase timings and each assertion with the value seen. */
export function TestResult({ test }: { test: NonNullable<MonitorFormState["test"]> }) {
  if (!test.ok) {
    return (
      <Card className="border-amber-300">
        <div className="flex items-start gap-3 px-5 py-4" data-testid="test-result" role="status">
          <CircleAlert className="mt-0.5 size-5 shrink-0 text-amber-600" aria-hidden />
          <div>
            <p className="font-medium">The test did not run</p>
            <p className="text-sm text-zinc-600">{test.message}</p>
          </div>
        </div>
      </Card>
    );
  }
  const r = test.result;
  const tone = r.status === "success" ? "green" : r.status === "degraded" ? "amber" : "red";
  const timings = r.timings;
  const phases = timings ? PHASES.filter((p) => typeof timings[p.key] === "number" && (timings[p.key] as number) > 0) : [];
  const total = timings?.total || r.latencyMs || 1;
  return (
    <Card className={r.status === "success" ? "border-emerald-300" : r.status === "degraded" ? "border-amber-300" : "border-red-300"}>
      <div className="grid gap-4 px-5 py-4" data-testid="test-result" role="status">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <h2 className="text-base font-semibold">Test result</h2>
          <Badge tone={tone}>{r.status}</Badge>
          <span className="text-sm text-zinc-600">
            <span className="font-medium text-zinc-900">{ms(r.latencyMs)}</span>
            {r.statusCode ? (
              <>
                {" "}
                · HTTP <span className="font-medium text-zinc-900">{r.statusCode}</span>
              </>
            ) : null}{" "}
            · from {test.location.name} ({regionLabel(test.location.region)})
          </span>
        </div>
        {r.errorMessage ? (
          <p className="rounded-md bg-red-50 px-3 py-2 font-mono text-sm text-red-800" data-testid="test-error">
            {r.errorMessage}
          </p>
        ) : null}
        {phases.length > 0 ? (
          <div className="grid gap-2">
            <div className="flex h-2.5 overflow-hidden rounded-full bg-zinc-100" aria-hidden>
              {phases.map((p) => (
                <div key={p.key} className={p.color} style={{ width: `${Math.max(1, ((timings![p.key] as number) / total) * 100)}%` }} />
              ))}
            </div>
            <dl className="flex flex-wrap gap-x-5 gap-y-1 text-xs text-zinc-600">
              {phases.map((p) => (
                <div key={p.key} className="flex items-center gap-1.5">
                  <span className={`size-2 rounded-full ${p.color}`} aria-hidden />
                  <dt>{p.label}</dt>
                  <dd className="font-medium text-zinc-900">{ms(timings![p.key] as number)}</dd>
                </div>
              ))}
            </dl>
          </div>
        ) : null}
        {r.assertions && r.assertions.length > 0 ? (
          <ul className="grid gap-1.5" aria-label="Assertions">
            {r.assertions.map((a, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: outcomes are in assertion order
              <li key={i} data-testid="assertion-outcome" data-ok={a.ok} className="flex items-start gap-2 text-sm">
                {a.ok ? (
                  <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-label="passed" />
                ) : (
                  <XCircle className="mt-0.5 size-4 shrink-0 text-red-600" aria-label="failed" />
                )}
                <span className="font-mono text-xs break-all leading-5">{a.message}</span>
              </li>
            ))}
          </ul>
        ) : null}
        {r.bodyTruncated ? <p className="text-xs text-zinc-500">The body was larger than 1 MiB; assertions saw its start.</p> : null}
      </div>
    </Card>
  );
}
