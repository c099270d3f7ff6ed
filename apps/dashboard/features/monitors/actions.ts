"use server";
import { createHash } from "node:crypto";
import { type Monitor, MonitorInput, REDACTED } from "@vigil/api-contract";
import {
  type ApplyPlan,
  applyMonitors,
  ConflictError,
  createMonitor,
  listMonitors,
  NotFoundError,
  testMonitorDraft,
  updateMonitor,
  ValidationError,
} from "@vigil/core";
import { LimitExceededError } from "@vigil/limits";
import { parseMonitorsYaml, ruleText, secretEnvName, type YamlError } from "@vigil/monitors-yaml";
import { revalidatePath } from "next/cache";
import { notFound, redirect } from "next/navigation";
import { getBus, monitorsChanged } from "../../lib/bus";
import { getDb } from "../../lib/db";
import { withLift } from "../../lib/limit-help";
import { log } from "../../lib/log";
import { actionMember } from "../../lib/session";
import type { Draft, MonitorFormState } from "./form/draft";
import { fieldOf, type PostedMonitor, postedMonitor, withKey, withoutSecrets } from "./form/input";

/** Which form field a limit is about. */
const LIMIT_FIELD: Record<string, string> = { periodicity: "frequency", "multi-region": "regions" };

function refused(err: unknown, draft: Draft): MonitorFormState {
  const at = Date.now();
  const back = withoutSecrets(draft);
  if (err instanceof ValidationError) {
    const fields: Record<string, string> = {};
    for (const i of err.issues) fields[fieldOf(i.path)] ??= i.message;
    return { error: `Not saved: ${err.message}`, fields, draft: back, at };
  }
  if (err instanceof LimitExceededError) {
    const field = LIMIT_FIELD[err.violation.key];
    return {
      error: `Limit reached — ${err.message}`,
      fields: field ? { [field]: `is refused by the limit ${err.message}` } : {},
      draft: back,
      at,
    };
  }
  if (err instanceof ConflictError) return { error: err.message, fields: { key: err.message }, draft: back, at };
  if (err instanceof NotFoundError) notFound();
  log().error({ err }, "monitor form action failed");
  return { error: "Something went wrong on our side; nothing was changed. Try again.", draft: back, at };
}

/** The form as the shared schema reads it, with its rules worded for people; field errors when it breaks one. */
function parsePosted({ draft, input }: PostedMonitor) {
  const r = MonitorInput.safeParse(input, { error: ruleText });
  if (r.success) return { ok: true as const, input: r.data };
  const fields: Record<string, string> = {};
  for (const i of r.error.issues) fields[fieldOf(i.path.map(String).join("."))] ??= i.message;
  const [name, rule] = Object.entries(fields)[0]!;
  return { ok: false as const, state: { error: `Not saved: ${name} ${rule}`, fields, draft: withoutSecrets(draft), at: Date.now() } };
}

const idOf = (form: FormData) => {
  const raw = String(form.get("id") ?? "");
  return /^\d{1,15}$/.test(raw) ? Number(raw) : null;
};

/** Creates or (with `id`) changes a monitor; nothing is written unless every field passes. */
export async function saveMonitorAction(_prev: MonitorFormState, form: FormData): Promise<MonitorFormState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: Date.now() };
  let posted = postedMonitor(form);
  const parsed = parsePosted(posted);
  if (!parsed.ok) return parsed.state;
  const id = idOf(form);
  const actor = `user:${m.user.id}`;
  const { draft } = posted;
  // Every monitor made here gets an entry key, so an exported file applies back onto it.
  if (id === null && !draft.key.trim()) posted = withKey(posted, await freeKey(m.workspace.id, draft.name || draft.url || draft.host));
  let saved: Monitor;
  try {
    // The raw input, not the parsed one: "***" for a kept secret must reach core, which swaps it for the stored value.
    saved =
      id === null
        ? await createMonitor(getDb(), m.workspace.id, posted.input, actor)
        : await updateMonitor(getDb(), m.workspace.id, id, posted.input, actor);
  } catch (err) {
    return withLift(refused(err, posted.draft), err, m.workspace);
  }
  await monitorsChanged(m.workspace.id);
  revalidatePath(`/w/${m.workspace.id}/monitors`, "layout");
  redirect(`/w/${m.workspace.id}/monitors?saved=${saved.id}`);
}

/** A slug of the monitor's name not yet used as a key in the workspace. */
async function freeKey(workspaceId: number, name: string): Promise<string> {
  const base =
    name
      .normalize("NFKD")
      .toLowerCase()
      .replace(/^https?:\/\//, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 90) || "monitor";
  const taken = new Set((await listMonitors(getDb(), workspaceId)).map((x) => x.key));
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  return key;
}

/**
 * Runs the unsaved definition once on a probe serving its regions and shows what happened. A kept
 * secret ("***") is filled in core from the stored monitor, and only while the URL's origin is unchanged.
 */
export async function testMonitorAction(_prev: MonitorFormState, form: FormData): Promise<MonitorFormState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: Date.now() };
  const posted = postedMonitor(form);
  const parsed = parsePosted(posted);
  if (!parsed.ok) return { ...parsed.state, error: parsed.state.error.replace(/^Not saved/, "Cannot test") };
  const bus = getBus();
  if (!bus)
    return { test: { ok: false, message: "Test now needs the server's Redis (REDIS_URL is not set for the dashboard)." }, at: Date.now() };
  let out: Awaited<ReturnType<typeof testMonitorDraft>>;
  try {
    out = await testMonitorDraft(getDb(), await bus, m.workspace.id, posted.input, idOf(form), `user:${m.user.id}`);
  } catch (err) {
    if (err instanceof ValidationError || err instanceof NotFoundError) {
      const state = refused(err, posted.draft);
      return { ...state, error: state.error?.replace(/^Not saved/, "Cannot test") };
    }
    log().warn({ err }, "test now failed");
    return { test: { ok: false, message: "Could not reach the probe bus (Redis); try again in a moment." }, at: Date.now() };
  }
  if (!out.ok) return { test: { ok: false, message: out.message }, at: Date.now() };
  return { test: { ok: true, location: { name: out.location.name, region: out.location.region }, result: out.result }, at: Date.now() };
}

// ── Monitors as code ─────────────────────────────────────────────────────────

export interface ImportState {
  errors?: { line: number; column: number; path: string; rule: string }[];
  error?: string;
  plan?: ApplyPlan & { prune: boolean; fingerprint: string; file: string };
  applied?: boolean;
  at?: number;
}

/** `${VAR}` placeholders an exported file holds for secrets: each means "keep the stored value". */
function storedSecretEnv(monitors: Monitor[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const m of monitors) {
    if (!m.key) continue;
    if (m.kind === "http")
      for (const [h, v] of Object.entries(m.request.headers)) if (v === REDACTED) env[secretEnvName(m.key, h)] = REDACTED;
    for (const h of Object.keys(m.openTelemetry?.headers ?? {})) env[secretEnvName(m.key, h, true)] = REDACTED;
  }
  return env;
}

const MONITOR_PATH = /^monitors\.(\d+)(?:\.(.+))?$/;
const shown = (e: YamlError) => ({
  line: e.line,
  column: e.column,
  path: e.path,
  rule: e.rule.replace(
    "which is not set in the environment",
    "which only a secret already stored under that entry can fill here; write the value instead",
  ),
});

async function yamlOf(form: FormData): Promise<{ text: string; file: string } | null> {
  const file = form.get("file");
  if (file instanceof File && file.size > 0) {
    if (file.size > 1_000_000) return null;
    return { text: await file.text(), file: file.name || "monitors.yaml" };
  }
  const text = String(form.get("yaml") ?? "");
  if (text.length > 1_000_000) return null;
  const name = String(form.get("fileName") ?? "")
    .replace(/[^\w. -]/g, "")
    .slice(0, 100);
  return text.trim() ? { text, file: name || "monitors.yaml" } : null;
}

const fingerprintOf = (p: ApplyPlan) =>
  createHash("sha256")
    .update(JSON.stringify([p.create, p.update, p.delete]))
    .digest("hex")
    .slice(0, 16);

async function planOrApply(form: FormData, apply: boolean): Promise<ImportState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: Date.now() };
  const at = Date.now();
  const source = await yamlOf(form);
  if (!source) return { error: "Choose a monitors YAML file (at most 1 MB) or paste its text.", at };
  const prune = form.get("prune") === "on";
  const parsed = parseMonitorsYaml(source.text, source.file, { env: storedSecretEnv(await listMonitors(getDb(), m.workspace.id)) });
  if (!parsed.ok) return { errors: parsed.errors.map(shown), at };
  const actor = `user:${m.user.id}`;
  try {
    const plan = await applyMonitors(getDb(), m.workspace.id, parsed.monitors, { prune, dryRun: true }, actor);
    const fingerprint = fingerprintOf(plan);
    if (!apply) return { plan: { ...plan, prune, fingerprint, file: source.file }, at };
    if (String(form.get("fingerprint") ?? "") !== fingerprint)
      return {
        error: "The file or the workspace changed since this plan; review the new plan before applying.",
        plan: { ...plan, prune, fingerprint, file: source.file },
        at,
      };
    const done = await applyMonitors(getDb(), m.workspace.id, parsed.monitors, { prune, dryRun: false }, actor);
    await monitorsChanged(m.workspace.id);
    revalidatePath(`/w/${m.workspace.id}/monitors`, "layout");
    return { plan: { ...done, prune, fingerprint, file: source.file }, applied: true, at };
  } catch (err) {
    if (err instanceof ValidationError) {
      return {
        errors: err.issues.map((i) => {
          const mp = MONITOR_PATH.exec(i.path);
          const segments = (mp?.[2] ?? "")
            .split(".")
            .filter(Boolean)
            .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
          return shown(parsed.errorAt(Number(mp?.[1] ?? 0), segments, i.message));
        }),
        at,
      };
    }
    if (err instanceof LimitExceededError) return { error: `Limit reached — ${err.message}. Nothing was changed.`, at };
    if (err instanceof ConflictError) return { error: `${err.message}. Nothing was changed.`, at };
    log().error({ err }, "monitor import failed");
    return { error: "Something went wrong on our side; nothing was changed. Try again.", at };
  }
}

/** "Review plan" shows what would change (the CLI's `apply --dry-run`); "Apply" does it, if the plan still holds. */
export async function importAction(_prev: ImportState, form: FormData): Promise<ImportState> {
  return planOrApply(form, form.get("intent") === "apply");
}
