// When a heartbeat's next ping is due: after a period, or at the next cron instant in an IANA zone.
import { CronExpressionParser } from "cron-parser";

export type Schedule =
  | { periodMs: number; graceMs: number; cron?: undefined; timezone?: undefined }
  | { periodMs?: undefined; graceMs: number; cron: string; timezone: string };

/** Why a cron expression cannot be used, or null. Five fields only: seconds or years would surprise a crontab user. */
export function cronError(expr: string, timezone = "UTC"): string | null {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) return `must have 5 fields (minute hour day month weekday), got ${fields.length}`;
  try {
    CronExpressionParser.parse(expr, { tz: timezone, currentDate: new Date(0) }).next();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

export function timezoneError(tz: string): string | null {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return null;
  } catch {
    return `"${tz}" is not an IANA time zone (such as Europe/Berlin or UTC)`;
  }
}

/** The first cron instant strictly after `afterMs`, DST-correct in `timezone`. */
export function nextCronTime(cron: string, timezone: string, afterMs: number): number {
  return CronExpressionParser.parse(cron, { tz: timezone, currentDate: new Date(afterMs) })
    .next()
    .getTime();
}

/** When a ping at `lastPingMs` is next expected (the deadline is this plus grace). */
export function nextExpected(s: Schedule, lastPingMs: number): number {
  return s.cron !== undefined ? nextCronTime(s.cron, s.timezone, lastPingMs) : lastPingMs + s.periodMs;
}
