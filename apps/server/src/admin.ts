// Operator commands: `pnpm --filter @vigil/server admin <command>` (DATABASE_URL picks the database).
import { loadEnv, env as shared, z } from "@vigil/config";
import {
  createAdminToken,
  createApiKey,
  createPrivateLocation,
  createWorkspace,
  listAdminTokens,
  listWorkspaces,
  revokeAdminToken,
  setLimits,
  ValidationError,
} from "@vigil/core";
import { createDb } from "@vigil/db-schema";
import { LimitExceededError } from "@vigil/limits";
import { Command, InvalidArgumentError } from "commander";

const { DATABASE_URL, DATABASE_AUTH_TOKEN } = loadEnv(
  z.object({ DATABASE_URL: shared.DATABASE_URL, DATABASE_AUTH_TOKEN: shared.DATABASE_AUTH_TOKEN }),
  "admin",
);
const db = createDb(DATABASE_URL, DATABASE_AUTH_TOKEN);

const id = (v: string) => {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError("must be a workspace id (a whole number)");
  return Number(v);
};
const out = (v: unknown): void => {
  process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
};

const program = new Command("admin").description("Vigil operator commands").showHelpAfterError();

const apiKey = program.command("api-key").description("API keys for the REST API and the CLI");
apiKey
  .command("create")
  .requiredOption("--workspace <id>", "workspace id", id)
  .option("--name <name>", "a label for the key", "operator")
  .description("create a key; it is shown once")
  .action(async (o: { workspace: number; name: string }) => out(await createApiKey(db, o.workspace, { name: o.name }, "operator")));

const token = program.command("token").description("instance-admin tokens for /v1/admin and `vigil admin`");
token
  .command("create")
  .option("--name <name>", "a label for the token", "operator")
  .description("create an instance-admin token; it is shown once")
  .action(async (o: { name: string }) => out(await createAdminToken(db, { name: o.name }, "operator")));
token.command("list").action(async () => out(await listAdminTokens(db)));
token
  .command("revoke")
  .argument("<id>", "token id (see token list)", id)
  .action(async (tokenId: number) => out({ revoked: await revokeAdminToken(db, tokenId, "operator") }));

const ws = program.command("workspace").description("workspaces");
ws.command("list").action(async () =>
  out((await listWorkspaces(db)).map(({ id, name, plan, paidUntil, endsAt, limits }) => ({ id, name, plan, paidUntil, endsAt, limits }))),
);
ws.command("create")
  .requiredOption("--name <name>", "workspace name")
  .option("--preset <preset>", "limits preset: restricted, free, starter, team, unlimited")
  .action(async (o: { name: string; preset?: string }) => {
    const created = await createWorkspace(db, { name: o.name }, "operator");
    if (o.preset) await setLimits(db, created.id, o.preset, "operator");
    out({ id: created.id, name: created.name });
  });

program
  .command("limits")
  .description("set a workspace's limits from a preset or a JSON object of keys")
  .requiredOption("--workspace <id>", "workspace id", id)
  .option("--preset <preset>", "restricted, free, starter, team or unlimited")
  .option("--json <limits>", 'e.g. {"monitors": 50}')
  .action(async (o: { workspace: number; preset?: string; json?: string }) => {
    if (!o.preset === !o.json) throw new InvalidArgumentError("give exactly one of --preset or --json");
    let input: unknown = o.preset;
    if (o.json) {
      try {
        input = JSON.parse(o.json);
      } catch {
        throw new InvalidArgumentError("--json must be a JSON object");
      }
    }
    out(await setLimits(db, o.workspace, input, "operator"));
  });

program
  .command("location")
  .description("create a private location; its SERVICE_KEY is shown once")
  .requiredOption("--workspace <id>", "workspace id", id)
  .requiredOption("--name <name>", "location name")
  .option("--region <region>", "region id it stands for", "private")
  .action(async (o: { workspace: number; name: string; region: string }) => {
    const { location, key } = await createPrivateLocation(db, o.workspace, { name: o.name, region: o.region as "private" }, "operator");
    out({ ...location, serviceKey: key });
  });

try {
  await program.parseAsync(process.argv);
  db.$client.close();
} catch (err) {
  const e = err as Error;
  const known =
    e instanceof ValidationError || e instanceof LimitExceededError || e instanceof InvalidArgumentError || e.name === "NotFoundError";
  process.stderr.write(`admin: ${e.message}\n`);
  db.$client.close();
  process.exit(known ? 1 : 2);
}
