// Who can lift a limit, and the exact line that does: shown wherever a workspace is stopped by one.
import { instanceAdminContacts, limitsOf, type Workspace } from "@vigil/core";
import { LimitExceededError, type LimitKey, type Limits, presets } from "@vigil/limits";
import { getDb } from "./db";
import { isAdmin } from "./instance";
import { rules } from "./instance-rules";

/** A value that lifts `key` past what it is now: on for a feature, more for a count, every frequency. */
function liftedValue(key: LimitKey, limits: Limits): Limits[LimitKey] {
  const now = limits[key];
  if (typeof now === "boolean") return true;
  if (Array.isArray(now)) return presets.unlimited.periodicity;
  if (key === "members") return "Unlimited";
  if (key === "data-retention") return "12 months";
  return typeof now === "number" ? Math.max(now * 10, 10) : now;
}

/** The CLI line and the SQL statement (against sqld) that lift `key` for workspace `id`. */
export function liftLines(id: number, key: LimitKey, limits: Limits) {
  const value = liftedValue(key, limits);
  const cliValue = Array.isArray(value) ? value.join(",") : String(value);
  const json = JSON.stringify(value).replaceAll("'", "''");
  return {
    cli: `pnpm exec vigil admin limits ${id} --set ${key}=${cliValue}`,
    sql: `UPDATE workspace SET limits = json_set(coalesce(limits, '{}'), '$.${key}', json('${json}')) WHERE id = ${id};`,
  };
}

/** Everything a refusal needs to say who lifts it, as flat strings for a form's state. */
export async function liftInfo(ws: Workspace, key: LimitKey): Promise<Record<string, string>> {
  const [admins, admin] = await Promise.all([instanceAdminContacts(getDb(), rules()), isAdmin()]);
  const { cli, sql } = liftLines(ws.id, key, limitsOf(ws).limits);
  return {
    limit: key,
    liftAdmins: admins.join(", "),
    ...(admin ? { liftUrl: `/instance/workspaces/${ws.id}` } : {}),
    liftCli: cli,
    liftSql: sql,
  };
}

/** A form state's `info` with who can lift the limit added, when `err` is a limit. */
export async function withLift<S extends { info?: Record<string, string> }>(state: S, err: unknown, ws: Workspace): Promise<S> {
  if (!(err instanceof LimitExceededError)) return state;
  return { ...state, info: { ...state.info, ...(await liftInfo(ws, err.violation.key)) } };
}
