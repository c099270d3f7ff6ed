// `vigil admin …`: the instance admin's commands over /v1/admin, with an instance-admin token
// (--token, VIGIL_ADMIN_TOKEN, or VIGIL_API_TOKEN).
import {
  InstanceLimitsOutput,
  InstanceUser,
  InstanceUserList,
  InstanceWorkspace,
  InstanceWorkspaceCreated,
  InstanceWorkspaceList,
} from "@vigil/api-contract";
import { LIMIT_KEYS, parseAssignments } from "@vigil/limits";
import type { Command } from "commander";
import { createApi } from "../api";
import type { Ctx } from "../context";
import { CliError } from "../io";

type Action = <A extends unknown[]>(fn: (ctx: Ctx, ...args: A) => Promise<number>) => (...args: A) => Promise<void>;

async function adminApi(ctx: Ctx) {
  const s = await ctx.settings();
  const token = ctx.flags.token ?? ctx.io.env.VIGIL_ADMIN_TOKEN ?? s.token;
  if (!token) throw new CliError("no instance-admin token: pass --token or set VIGIL_ADMIN_TOKEN (Instance → People, tokens & log)", 1);
  return createApi({ apiUrl: s.apiUrl, token });
}

const wsArg = (raw: string) => {
  if (!/^\d{1,15}$/.test(raw)) throw new CliError(`workspace must be a workspace id (a whole number), got "${raw}"`, 1);
  return Number(raw);
};
const num = (v: unknown) => (typeof v === "number" ? v.toLocaleString("en") : String(v));
const date = (s: number | null) => (s ? new Date(s * 1000).toISOString().slice(0, 10) : "-");

function print(ctx: Ctx, value: unknown, text: () => string): number {
  ctx.io.stdout(ctx.json ? `${JSON.stringify(value, null, 2)}\n` : text());
  return 0;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n")}\n`;
}

const limitsText = (limits: Record<string, unknown>) =>
  `${LIMIT_KEYS.map((k) => `${k.padEnd(22)} ${Array.isArray(limits[k]) ? (limits[k] as string[]).join(", ") : num(limits[k])}`).join("\n")}\n`;

export function registerAdmin(program: Command, action: Action): void {
  const admin = program.command("admin").description("instance admin: workspaces, limits, plans and users (needs an instance-admin token)");
  admin
    .command("workspaces")
    .description("every workspace with its members, monitors, plan and state")
    .action(
      action(async (ctx) => {
        const { workspaces } = await (await adminApi(ctx)).call("GET", "/v1/admin/workspaces", InstanceWorkspaceList);
        return print(ctx, workspaces, () =>
          table([
            ["ID", "NAME", "STATE", "PLAN", "MONITORS", "MEMBERS"],
            ...workspaces.map((w) => [
              String(w.id),
              w.name ?? "",
              w.state,
              w.plan ?? "-",
              `${num(w.monitors)}/${num(w.limits.monitors)}`,
              w.members.map((m) => `${m.email ?? "?"} (${m.role}${m.disabled ? ", disabled" : ""})`).join(", ") || "-",
            ]),
          ]),
        );
      }),
    );
  admin
    .command("limits")
    .description("set a workspace's limits: a preset as the starting point, keys over it")
    .argument("<workspace>", "workspace id (see `vigil admin workspaces`)")
    .option("--preset <preset>", "restricted, free, starter, team or unlimited")
    .option(
      "--set <key=value>",
      "a limit key (repeat): monitors=200, periodicity=1m,5m, members=Unlimited",
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .action(
      action(async (ctx, ws: string, o: { preset?: string; set?: string[] }) => {
        const id = wsArg(ws);
        const { values, error } = parseAssignments(o.set ?? []);
        if (error) throw new CliError(`--set: ${error}`, 1);
        if (!o.preset && Object.keys(values).length === 0) throw new CliError("give --preset and/or --set key=value", 1);
        const out = await (await adminApi(ctx)).call("PUT", `/v1/admin/workspaces/${id}/limits`, InstanceLimitsOutput, {
          preset: o.preset,
          set: values,
        });
        return print(ctx, out, () => `workspace ${id}: limits in force now\n${limitsText(out.limits)}`);
      }),
    );
  admin
    .command("plan")
    .description("set a workspace's plan, paid-until and end dates (a passed date means restricted)")
    .argument("<workspace>", "workspace id")
    .requiredOption("--plan <name>", "plan name, e.g. team")
    .option("--paid-until <date>", "YYYY-MM-DD, unix seconds, or none")
    .option("--ends-at <date>", "YYYY-MM-DD, unix seconds, or none")
    .action(
      action(async (ctx, ws: string, o: { plan: string; paidUntil?: string; endsAt?: string }) => {
        const id = wsArg(ws);
        const w = await (await adminApi(ctx)).call("PUT", `/v1/admin/workspaces/${id}/plan`, InstanceWorkspace, {
          plan: o.plan,
          paidUntil: o.paidUntil,
          endsAt: o.endsAt,
        });
        return print(
          ctx,
          w,
          () => `workspace ${id}: plan ${w.plan}, paid until ${date(w.paidUntil)}, ends ${date(w.endsAt)}, ${w.state}\n`,
        );
      }),
    );
  admin
    .command("create-workspace")
    .description("create a workspace owned by an e-mail address (an invitation link when they have no account)")
    .requiredOption("--email <email>", "the owner's address")
    .option("--name <name>", "workspace name")
    .option("--preset <preset>", "limits preset", "restricted")
    .action(
      action(async (ctx, o: { email: string; name?: string; preset: string }) => {
        const made = await (await adminApi(ctx)).call("POST", "/v1/admin/workspaces", InstanceWorkspaceCreated, o);
        return print(ctx, made, () =>
          made.joined
            ? `workspace ${made.workspace.id} created; ${made.email} owns it\n`
            : `workspace ${made.workspace.id} created; send ${made.email} the link <dashboard>/invite/${made.invitationToken} (shown once)\n`,
        );
      }),
    );
  admin
    .command("users")
    .description("every user of the instance")
    .action(
      action(async (ctx) => {
        const { users } = await (await adminApi(ctx)).call("GET", "/v1/admin/users", InstanceUserList);
        return print(ctx, users, () =>
          table([["ID", "EMAIL", "STATE"], ...users.map((u) => [u.id, u.email ?? "", u.disabledAt ? "disabled" : "active"])]),
        );
      }),
    );
  for (const verb of ["disable", "enable"] as const) {
    admin
      .command(`${verb}-user`)
      .description(verb === "disable" ? "refuse a user's sign-in and end their sessions" : "let a disabled user sign in again")
      .argument("<user-id>", "see `vigil admin users`")
      .action(
        action(async (ctx, userId: string) => {
          const u = await (await adminApi(ctx)).call("POST", `/v1/admin/users/${encodeURIComponent(userId)}/${verb}`, InstanceUser);
          return print(ctx, u, () => `${u.email ?? u.id}: ${u.disabled ? "disabled" : "enabled"}\n`);
        }),
      );
  }
}
