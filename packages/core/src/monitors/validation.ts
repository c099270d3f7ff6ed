import { kindOf, MonitorInput } from "@vigil/api-contract";
import { type Conn, monitor, notificationChannel } from "@vigil/db-schema";
import type { LimitCheck } from "@vigil/limits";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { ConflictError, ValidationError } from "../errors";

/** A monitor and where it sits in the request body, for error paths such as `monitors.3.key`. */
export interface Located {
  input: MonitorInput;
  path: string;
}

export function parseMonitor(raw: unknown, path: string): MonitorInput {
  const r = MonitorInput.safeParse(raw);
  if (r.success) {
    if (r.data.degradedAfter !== undefined && r.data.degradedAfter >= r.data.timeout) {
      throw new ValidationError(`${path ? `${path}.` : ""}degradedAfter must be less than timeout`, [
        { path: [path, "degradedAfter"].filter(Boolean).join("."), message: `must be less than timeout (${r.data.timeout} ms)` },
      ]);
    }
    return r.data;
  }
  const issues = r.error.issues.map((i) => ({ path: [path, ...i.path.map(String)].filter(Boolean).join("."), message: i.message }));
  const { path: at, message } = issues[0]!;
  // Union messages already name their field ("kind must be http or tcp").
  const last = at.split(".").at(-1) ?? "";
  throw new ValidationError(
    last && message.startsWith(`${last} `) ? `${at}${message.slice(last.length)}` : `${at || "monitor"} ${message}`,
    issues,
  );
}

export function limitChecks(inputs: MonitorInput[], total: number): LimitCheck[] {
  return [
    { kind: "count", key: "monitors", total },
    // A heartbeat's period is its job's schedule, not a check the instance runs: periodicity does not apply.
    ...inputs.flatMap((m): LimitCheck[] =>
      kindOf(m.kind).serverSide
        ? []
        : [
            { kind: "periodicity", frequency: m.frequency },
            { kind: "regions", regions: m.regions },
          ],
    ),
  ];
}

export async function channelIdsByName(tx: Conn, workspaceId: number, inputs: Located[]) {
  const names = [...new Set(inputs.flatMap(({ input }) => input.channels ?? []))];
  if (names.length === 0) return new Map<string, number>();
  const rows = await tx
    .select({ id: notificationChannel.id, name: notificationChannel.name })
    .from(notificationChannel)
    .where(and(eq(notificationChannel.workspaceId, workspaceId), inArray(notificationChannel.name, names)));
  const map = new Map(rows.map((r) => [r.name, r.id]));
  const issues = inputs.flatMap(({ input, path }) =>
    (input.channels ?? [])
      .map((name, i) => ({ name, i }))
      .filter(({ name }) => !map.has(name))
      .map(({ name, i }) => ({
        path: [path, "channels", String(i)].filter(Boolean).join("."),
        message: `no notification channel named "${name}"`,
      })),
  );
  if (issues.length > 0) throw new ValidationError(`${issues[0]!.path} ${issues[0]!.message}`, issues);
  return map;
}

export async function assertKeysFree(tx: Conn, workspaceId: number, inputs: Located[], exceptId?: number) {
  const seen = new Map<string, string>();
  for (const { input, path } of inputs) {
    if (!input.key) continue;
    const other = seen.get(input.key);
    if (other !== undefined)
      throw new ValidationError(`${path}.key "${input.key}" is used twice`, [
        { path: `${path}.key`, message: `"${input.key}" is also used by ${other}` },
      ]);
    seen.set(input.key, path);
  }
  const keys = [...seen.keys()];
  if (keys.length === 0) return;
  const taken = await tx
    .select({ id: monitor.id, key: monitor.key })
    .from(monitor)
    .where(and(eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt), inArray(monitor.key, keys)));
  const clash = taken.find((t) => t.id !== exceptId);
  if (clash) throw new ConflictError(`a monitor with key "${clash.key}" already exists (id ${clash.id}); use apply to update it`);
}
