// What the browser posted, as the monitor form's model.
import type { CheckKindName } from "@vigil/api-contract";
import { ASSERTION_KINDS, type AssertionKind, type Draft, type HeaderRow } from "./draft";
import { ALL_KINDS } from "./kind-fields";

const str = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};
/** Rows named `<prefix>.<i>.<field>`, in index order (gaps from removed rows are fine). */
function rows(form: FormData, prefix: string): Map<number, Record<string, string>> {
  const out = new Map<number, Record<string, string>>();
  for (const [name, value] of form.entries()) {
    const m = new RegExp(`^${prefix}\\.(\\d{1,3})\\.([a-zA-Z]+)$`).exec(name);
    if (!m || typeof value !== "string") continue;
    const i = Number(m[1]);
    out.set(i, { ...out.get(i), [m[2]!]: value });
  }
  return new Map([...out.entries()].sort(([a], [b]) => a - b));
}

const headerRowsOf = (form: FormData, prefix: string): HeaderRow[] =>
  [...rows(form, prefix).values()].map((r) => ({
    name: r.name ?? "",
    value: r.value ?? "",
    secret: r.secret === "on",
    stored: r.stored === "1",
  }));

/** What the browser posted, as the form's model. */
export function draftFromForm(form: FormData): Draft {
  return {
    kind: (ALL_KINDS as string[]).includes(str(form, "kind")) ? (str(form, "kind") as CheckKindName) : "http",
    fields: Object.fromEntries(
      [...form.entries()].flatMap(([k, v]) => (k.startsWith("field.") && typeof v === "string" ? [[k.slice(6), v]] : [])),
    ),
    fieldsStored: str(form, "fieldsStored") === "1",
    assertionsText: str(form, "assertionsText"),
    name: str(form, "name"),
    key: str(form, "key"),
    description: str(form, "description"),
    tags: str(form, "tags"),
    url: str(form, "url"),
    method: str(form, "method") || "GET",
    body: str(form, "body"),
    followRedirects: str(form, "followRedirects") === "on",
    headers: headerRowsOf(form, "header"),
    assertions: [...rows(form, "assertion").values()].map((r) => ({
      kind: (ASSERTION_KINDS.some((k) => k.kind === r.kind) ? r.kind : "statusCode") as AssertionKind,
      compare: r.compare ?? "eq",
      target: r.target ?? "",
      key: r.key ?? "",
      path: r.path ?? "",
      property: r.property ?? "expiresIn",
      severity: r.severity ?? "error",
    })),
    host: str(form, "host"),
    port: str(form, "port"),
    frequency: str(form, "frequency"),
    regions: form.getAll("regions").filter((v): v is string => typeof v === "string"),
    timeout: str(form, "timeout"),
    degradedAfter: str(form, "degradedAfter"),
    retry: str(form, "retry"),
    failureThreshold: str(form, "failureThreshold"),
    successThreshold: str(form, "successThreshold"),
    otelEndpoint: str(form, "otelEndpoint"),
    otelHeaders: headerRowsOf(form, "otelHeader"),
    channels: form.getAll("channels").filter((v): v is string => typeof v === "string"),
    remindEvery: str(form, "remindEvery"),
    remindPerChannel: str(form, "remindPerChannel") === "1",
    escalationPolicy: str(form, "escalationPolicy"),
    dependsOn: form.getAll("dependsOn").filter((v): v is string => typeof v === "string"),
    active: str(form, "active") === "on",
    hbMode: str(form, "hbMode") === "cron" ? "cron" : "period",
    period: str(form, "period"),
    cron: str(form, "cron"),
    timezone: str(form, "timezone"),
    grace: str(form, "grace"),
  };
}
