import { createRequire } from "node:module";
import { createInterface } from "node:readline/promises";
import { pathToFileURL } from "node:url";
import { Command, CommanderError } from "commander";
import { ApiError } from "./api";
import { ack } from "./commands/ack";
import { registerAdmin } from "./commands/admin";
import { apply } from "./commands/apply";
import { create } from "./commands/create";
import { deleteMonitors } from "./commands/delete";
import { type PingFlags, ping, runWrapped } from "./commands/heartbeat";
import { importMonitors } from "./commands/import";
import { registerIncident } from "./commands/incident";
import { list } from "./commands/list";
import { login } from "./commands/login";
import { registerReport } from "./commands/report";
import { schema } from "./commands/schema";
import { trigger } from "./commands/trigger";
import { validate } from "./commands/validate";
import { whoami } from "./commands/whoami";
import { type Ctx, type GlobalFlags, makeCtx, reportApiError } from "./context";
import { CliError, type Io, printJsonError } from "./io";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

/** Runs one `vigil` invocation and returns its exit code; no process globals, so tests call it directly. */
export async function run(argv: readonly string[], given: Io): Promise<number> {
  const io: Io = { ...given, json: given.json ?? argv.includes("--json") };
  let exitCode = 0;
  const program = new Command("vigil")
    .description("Manage Vigil uptime monitors from YAML files")
    .version(version)
    .option("--api-url <url>", "server URL (env VIGIL_API_URL, default http://127.0.0.1:3001)")
    .option("--token <token>", "API token (env VIGIL_API_TOKEN, or saved by `vigil login`)")
    .option("--json", "print machine-readable JSON")
    .showHelpAfterError("(run `vigil --help` for usage)")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  // Each action resolves the global flags (given before or after the command) and records its exit code.
  const action =
    <A extends unknown[]>(fn: (ctx: Ctx, ...args: A) => Promise<number>) =>
    async (...args: A) => {
      const cmd = args.at(-1) as Command;
      exitCode = await fn(makeCtx(io, cmd.optsWithGlobals<GlobalFlags>()), ...(args.slice(0, -1) as A));
    };

  program
    .command("create")
    .description("upload every monitor of a YAML file in one batch; monitoring starts right away")
    .argument("<config_file>", "monitors YAML file")
    .action(action((ctx, file: string) => create(ctx, file)));
  program
    .command("apply")
    .description(
      "make the workspace's monitors match a YAML file (matched by entry key). Up to 1,000 monitors are one all-or-nothing " +
        "request; a bigger file goes in pages of 500: every page is planned first (one refused entry and nothing is written), " +
        "then applied page by page, --prune last; a page refused then leaves the pages before it applied, and running apply " +
        "again converges",
    )
    .argument("<file>", "monitors YAML file")
    .option("--dry-run", "show the plan without changing anything")
    .option("--prune", "delete keyed monitors that are not in the file")
    .action(action((ctx, file: string, flags: { dryRun?: boolean; prune?: boolean }) => apply(ctx, file, flags)));
  program
    .command("import")
    .description("write the workspace's monitors as a YAML file")
    .option("-o, --output <file>", "write to a file instead of stdout")
    .action(action((ctx, flags: { output?: string }) => importMonitors(ctx, flags)));
  program
    .command("validate")
    .description("check a monitors YAML file without contacting the server")
    .argument("<file>", "monitors YAML file")
    .action(action((ctx, file: string) => validate(ctx, file)));
  program
    .command("schema")
    .description("print the JSON Schema of the monitors file (for editors)")
    .option("-o, --output <file>", "write to a file (e.g. vigil.schema.json, which monitors files name on their first line)")
    .action(action((ctx, flags: { output?: string }) => schema(ctx, flags)));
  program
    .command("list")
    .description("list the workspace's monitors")
    .option("-t, --tag <tag>", "only monitors with this tag (repeat for several: all must match)", (v: string, acc: string[] = []) => [
      ...acc,
      v,
    ])
    .action(action((ctx, flags: { tag?: string[] }) => list(ctx, flags)));
  program
    .command("delete")
    .description("delete monitors by id")
    .argument("<id...>", "monitor ids (see `vigil list`)")
    .action(action((ctx, ids: string[]) => deleteMonitors(ctx, ids)));
  program
    .command("trigger")
    .description("run a monitor's check now and print the result")
    .argument("<id>", "monitor id")
    .action(action((ctx, id: string) => trigger(ctx, id)));
  program
    .command("ping")
    .description("report a run to a heartbeat monitor (success unless --start, --fail or --exit)")
    .argument("<entry>", "the heartbeat's entry key or monitor id")
    .option("--start", "a run begins (its duration is measured until the next ping)")
    .option("--fail", "the run failed")
    .option("--exit <code>", "the run's exit code: 0 is success, 1-255 a failure naming it")
    .option("--body <text>", "text kept with the ping (first 10 kB), shown in alerts on failure")
    .action(action((ctx, entry: string, flags: PingFlags) => ping(ctx, entry, flags)));
  program
    .command("run")
    .description("run a command as a heartbeat's job: pings start, then success or its exit code with its output's tail")
    .usage("<entry> -- <command> [args...]")
    .argument("<entry>", "the heartbeat's entry key or monitor id")
    .argument("<command...>", "the command and its arguments, after --")
    .action(action((ctx, entry: string, command: string[]) => runWrapped(ctx, entry, command)));
  program
    .command("ack")
    .description("acknowledge a monitor's open alert (or an incident's): reminders and escalation stop")
    .argument("<id>", "monitor id, or incident id with --incident")
    .option("--incident", "the id is an incident's")
    .action(action((ctx, id: string, flags: { incident?: boolean }) => ack(ctx, id, flags)));
  registerIncident(program, action);
  registerAdmin(program, action);
  registerReport(program, action);
  program
    .command("whoami")
    .description("show the server, workspace and API key in use")
    .action(action((ctx) => whoami(ctx)));
  program
    .command("login")
    .description("check an API token and save it with the server URL")
    .action(action((ctx) => login(ctx)));

  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 1; // commander printed it already
    if (error instanceof ApiError) return reportApiError(io, error);
    if (error instanceof CliError) {
      if (error.reported) return error.exitCode;
      if (io.json) printJsonError(io, error);
      else io.stderr(`vigil: ${error.message}\n`);
      return error.exitCode;
    }
    const message = `unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    if (io.json) printJsonError(io, { message, exitCode: 2 });
    else io.stderr(`vigil: ${message}\n`);
    return 2;
  }
}

/** The real process: stdio, environment, and a prompt when there is a terminal. */
export async function main(): Promise<void> {
  const io: Io = {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
    stderrIsTty: process.stderr.isTTY === true,
    prompt: process.stdin.isTTY
      ? async (question) => {
          const rl = createInterface({ input: process.stdin, output: process.stderr });
          try {
            return await rl.question(question);
          } finally {
            rl.close();
          }
        }
      : undefined,
  };
  process.exitCode = await run(process.argv.slice(2), io);
}

// `tsx src/main.ts ...` runs it directly; bin/vigil.mjs imports it and calls main().
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
