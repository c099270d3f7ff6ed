// The "What to check" section of every kind the form has no section of its own for: one input per
// request field, typed from the kind's schema (kind-fields), plus its assertions as JSON.
import { type CheckKindName, kindOf } from "@vigil/api-contract";
import type { ReactNode } from "react";
import { Field, Input, Select } from "../../../ui/ui";
import type { Draft } from "./draft";
import { kindFields } from "./kind-fields";
import { CodeArea } from "./parts";

export const KIND_LABELS: Partial<Record<CheckKindName, string>> = {
  http: "HTTP",
  tcp: "TCP",
  tls: "TLS",
  dns: "DNS",
  domain: "Domain",
  ping: "Ping",
  grpc: "gRPC",
  websocket: "WebSocket",
  postgres: "PostgreSQL",
  mysql: "MySQL",
  redis: "Redis",
  heartbeat: "Heartbeat",
};

const PLACEHOLDERS: Record<string, string> = {
  host: "db.internal",
  port: "50051",
  url: "wss://example.com/socket",
  connection: "postgres://user:password@db.internal:5432/app",
  headers: '{"Authorization": "Bearer …"}',
  secretHeaders: '["X-Tenant"]',
};

/** "recordType" of a DNS monitor → "DNS record type": the kind in front, so "name" or "host" never reads as the monitor's own. */
const labelOf = (kind: CheckKindName, name: string) => `${KIND_LABELS[kind] ?? kind} ${name.replace(/([A-Z])/g, " $1").toLowerCase()}`;

export function GenericKindSection({
  kind,
  draft,
  set,
  error,
}: {
  kind: CheckKindName;
  draft: Draft;
  set: (patch: Partial<Draft>) => void;
  error: (name: string) => string | undefined;
}): ReactNode {
  const k = kindOf(kind);
  const setField = (name: string, value: string) => set({ fields: { ...draft.fields, [name]: value } });
  const hasAssertions = "assertions" in k.input;
  return (
    <section className="grid gap-4 rounded-xl border border-zinc-200 bg-white p-5">
      <div>
        <h2 className="text-base font-semibold">{KIND_LABELS[kind] ?? kind}</h2>
        {k.describe ? <p className="mt-1 text-sm text-zinc-500">{k.describe}</p> : null}
      </div>
      {draft.fieldsStored ? <input type="hidden" name="fieldsStored" value="1" /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {kindFields(kind).map((f) => {
          const id = `field.${f.name}`;
          const value = draft.fields[f.name] ?? "";
          if (f.type === "boolean")
            return (
              <label key={f.name} className="flex items-center gap-2 self-end text-sm">
                <input
                  type="checkbox"
                  name={id}
                  checked={value === "on" || value === "true"}
                  onChange={(e) => setField(f.name, e.target.checked ? "on" : "")}
                />
                {labelOf(kind, f.name)}
              </label>
            );
          return (
            <Field
              key={f.name}
              label={labelOf(kind, f.name)}
              name={id}
              error={error(f.name)}
              hint={
                f.secret
                  ? draft.fieldsStored
                    ? "A secret, stored encrypted: left empty, the stored value is kept."
                    : "A secret: stored encrypted, never shown again."
                  : f.type === "map" || f.type === "list"
                    ? "As JSON."
                    : undefined
              }
            >
              {f.type === "choice" ? (
                <Select id={id} name={id} value={value} onChange={(e) => setField(f.name, e.target.value)} invalid={!!error(f.name)}>
                  {f.required ? null : <option value="">{f.placeholder ? `default (${f.placeholder})` : "none"}</option>}
                  {f.options?.map((o) => (
                    <option key={o}>{o}</option>
                  ))}
                </Select>
              ) : (
                <Input
                  id={id}
                  name={id}
                  type={f.secret ? "password" : "text"}
                  autoComplete={f.secret ? "off" : undefined}
                  inputMode={f.type === "number" ? "numeric" : undefined}
                  value={value}
                  onChange={(e) => setField(f.name, e.target.value)}
                  placeholder={f.secret && draft.fieldsStored ? "•••••• (stored)" : (f.placeholder ?? PLACEHOLDERS[f.name])}
                  className="font-mono"
                  invalid={!!error(f.name)}
                />
              )}
            </Field>
          );
        })}
      </div>
      {hasAssertions ? (
        <Field
          label="Assertions (JSON)"
          name="assertionsText"
          error={error("assertionsText")}
          hint='As JSON, e.g. [{"kind": "textBody", "compare": "eq", "target": "1"}] or [{"kind": "latency", "compare": "lt", "target": 200}].'
        >
          <CodeArea
            id="assertionsText"
            name="assertionsText"
            value={draft.assertionsText}
            onChange={(e) => set({ assertionsText: e.target.value })}
            invalid={!!error("assertionsText")}
          />
        </Field>
      ) : null}
    </section>
  );
}
