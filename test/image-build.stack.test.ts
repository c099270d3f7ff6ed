// No Docker engine here, so the Dockerfile's Node stages are replayed by a small interpreter: each stage's
// /app is a temp directory, COPY and RUN do what they say (RUN through sh), and any instruction it does not
// know fails the test. The only liberties: pnpm and turbo come from this machine (same versions, checked),
// `--mount` cache flags are dropped, the pnpm store is this machine's, and `/data` and `/keys` map into the stage.
import { execFile, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { generateSecretKey } from "@vigil/db-schema";
import { freePort } from "@vigil/db-schema/testing";
import { type RunningSqld, startSqld } from "@vigil/sqld";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const sh = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "vigil-image-build-"));

type Instruction = { op: string; args: string };
type Stage = { name: string; from: string; body: Instruction[] };

function parseDockerfile(): Map<string, Stage> {
  const stages = new Map<string, Stage>();
  const args: Record<string, string> = {};
  let current: Stage | undefined;
  const text = readFileSync(join(root, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const [, op, rest] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (!op || rest === undefined) throw new Error(`Dockerfile: cannot read "${line}"`);
    if (op === "ARG" && !current) {
      const [k, v] = rest.split("=");
      args[k!] = v ?? "";
    } else if (op === "FROM") {
      const [, from, name] = /^(\S+)\s+AS\s+(\S+)$/i.exec(rest) ?? [];
      current = { name: name!, from: from!.replace(/\$\{(\w+)\}/g, (_, k: string) => args[k] ?? ""), body: [] };
      stages.set(current.name, current);
    } else current?.body.push({ op, args: rest.trim() });
  }
  return stages;
}

/** The build context as `docker build .` sends it: the working tree minus .dockerignore. */
function copyContext(dest: string) {
  const rules = readFileSync(join(root, ".dockerignore"), "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => {
      const negate = l.startsWith("!");
      const pattern = (negate ? l.slice(1) : l).replace(/^\*\*\//, "");
      const anywhere = l.replace(/^!/, "").startsWith("**/");
      const glob = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*");
      return { negate, re: new RegExp(anywhere ? `(^|/)${glob}(/|$)` : `^${glob}(/|$)`) };
    });
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    let ignored = false;
    for (const rule of rules) if (rule.re.test(file)) ignored = !rule.negate;
    if (ignored || !existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    cpSync(join(root, file), join(dest, file));
  }
}

const store = execFileSync("pnpm", ["store", "path"], { cwd: root, encoding: "utf8" }).trim();
/** The services that read stored secrets need a key to start. */
const SECRET_KEY = generateSecretKey();
const built = new Map<string, { dir: string; env: Record<string, string>; cmd?: string[]; user?: string }>();

/** Builds one stage (and the stages it needs) into its own directory. */
async function build(
  stages: Map<string, Stage>,
  name: string,
): Promise<{ dir: string; env: Record<string, string>; cmd?: string[]; user?: string }> {
  const done = built.get(name);
  if (done) return done;
  const stage = stages.get(name);
  if (!stage) throw new Error(`Dockerfile has no stage ${name}`);
  // A final target that only sets ENV/USER/CMD shares its parent's files instead of copying them.
  const writes = stage.body.some((i) => i.op === "COPY" || i.op === "RUN");
  let dir = join(work, name);
  let env: Record<string, string> = {};
  let cmd: string[] | undefined;
  let user: string | undefined;
  if (stages.has(stage.from)) {
    const parent = await build(stages, stage.from);
    if (!writes) dir = parent.dir;
    else if (existsSync(parent.dir)) execFileSync("cp", ["-a", parent.dir, dir]);
    ({ env, cmd, user } = { env: { ...parent.env }, cmd: parent.cmd, user: parent.user });
  }
  mkdirSync(dir, { recursive: true });
  const local = (path: string) => path.replace(/^\/app(\/|$)/, `${dir}/`).replace(/^\/data\//, `${dir}/data/`);
  for (const { op, args } of stage.body) {
    if (op === "WORKDIR") {
      if (args !== "/app" && name !== "cli") throw new Error(`${name}: WORKDIR ${args} is not replayed`);
    } else if (op === "ENV") {
      for (const [, k, v] of args.matchAll(/(\w+)=(\S+)/g)) if (k !== "PATH" && k !== "PNPM_HOME") env[k!] = v!;
    } else if (op === "COPY") {
      const parts = args.split(/\s+/).filter((p) => !p.startsWith("--chown"));
      const from = parts[0]!.startsWith("--from=") ? parts.shift()!.slice(7) : undefined;
      const [src, dest] = parts as [string, string];
      const target = dest === "./" || dest === "." ? dir : local(dest.startsWith("/") ? dest : `/app/${dest}`);
      if (!from && src === ".") copyContext(dir);
      else if (!from) {
        mkdirSync(target, { recursive: true });
        cpSync(join(root, src), src.endsWith("/") ? target : join(target, src.split("/").pop()!), { recursive: true });
      } else
        cpSync(local(src).replace(`${dir}/`, `${(await build(stages, from)).dir}/`), target, { recursive: true, verbatimSymlinks: true });
    } else if (op === "RUN") {
      if (/^npm install --global/.test(args)) {
        // The image's pnpm and turbo are this machine's: same versions or the replay means nothing.
        expect(execFileSync("pnpm", ["--version"], { encoding: "utf8" }).trim()).toBe(/pnpm@([\d.]+)/.exec(args)![1]);
        const turbo = execFileSync(join(root, "node_modules/.bin/turbo"), ["--version"], { encoding: "utf8" }).trim();
        expect(turbo).toBe(/turbo@([\d.]+)/.exec(args)![1]);
        continue;
      }
      const command = args
        .replace(/--mount=\S+\s*/g, "")
        .replaceAll("/pnpm/store", store)
        .replace(/\/data\//g, `${dir}/data/`)
        .replace(/ \/keys\b/g, ` ${dir}/keys`)
        .replace(/\s*&&\s*chown [^&]+/g, "");
      await sh("sh", ["-c", command], {
        cwd: dir,
        env: { ...process.env, ...env, PATH: `${join(root, "node_modules/.bin")}:${process.env.PATH}`, CI: "1" },
        timeout: 240_000,
        maxBuffer: 64 * 1024 * 1024,
      }).catch((err: { stderr?: string; stdout?: string }) => {
        throw new Error(`${name}: RUN ${command}\n${err.stdout?.slice(-2000)}\n${err.stderr?.slice(-2000)}`);
      });
    } else if (op === "CMD") cmd = JSON.parse(args) as string[];
    else if (op === "USER") user = args;
    else if (!["EXPOSE", "HEALTHCHECK", "VOLUME", "ENTRYPOINT", "LABEL"].includes(op)) throw new Error(`${name}: ${op} is not replayed`);
  }
  const result = { dir, env, cmd, user };
  built.set(name, result);
  return result;
}

const processEnv = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;
let server: Awaited<ReturnType<typeof build>>;
let workflows: Awaited<ReturnType<typeof build>>;
let probe: Awaited<ReturnType<typeof build>>;
let sqld: RunningSqld;

beforeAll(async () => {
  const stages = parseDockerfile();
  server = await build(stages, "server");
  workflows = await build(stages, "workflows");
  probe = await build(stages, "private-location");
  sqld = await startSqld({ dbPath: join(work, "db", "data.sqld"), httpPort: await freePort() });
}, 300_000);

// Three images' node_modules take a while to delete on a busy disk.
afterAll(async () => {
  await sqld?.stop();
  rmSync(work, { recursive: true, force: true });
}, 180_000);

describe("the server image, built by replaying the Dockerfile without Docker", () => {
  it("holds production dependencies only, no TypeScript tooling, and runs as node", () => {
    const modules = JSON.parse(readFileSync(join(server.dir, "node_modules/.modules.yaml"), "utf8")) as {
      included: Record<string, boolean>;
    };
    expect(modules.included).toMatchObject({ dependencies: true, devDependencies: false });
    const installed = readdirSync(join(server.dir, "node_modules/.pnpm"));
    for (const dev of ["vitest@", "typescript@", "@biomejs+biome@", "drizzle-kit@", "chdb@"]) {
      expect(
        installed.filter((p) => p.startsWith(dev)),
        dev,
      ).toEqual([]);
    }
    expect(server.user).toBe("node");
    expect(server.env).toMatchObject({ NODE_ENV: "production", PORT: "3001" });
  });

  it("migrates a database with the db-migrate bundle and the migrations the image carries", async () => {
    const { stdout } = await sh("node", [join(server.dir, "apps/server/dist/db-migrate.js")], {
      cwd: server.dir,
      env: processEnv({ PATH: process.env.PATH!, DATABASE_URL: sqld.url, VIGIL_SECRET_KEY: SECRET_KEY }),
      timeout: 60_000,
    });
    expect(stdout.trim()).toBe(`db-migrate: ${sqld.url} is up to date`);
  });

  it("the db-keys bundle makes the database's keys as compose mounts them; db-migrate passes with db-token only", async () => {
    const keysDir = join(work, "keys-volume");
    const run = (entry: string, env: Record<string, string>) =>
      sh("node", [join(server.dir, `apps/server/dist/${entry}.js`)], {
        cwd: server.dir,
        env: processEnv({ PATH: process.env.PATH!, ...env }),
        timeout: 60_000,
      });
    const made = await run("db-keys", { DB_KEYS_DIR: keysDir });
    expect(made.stdout).toMatch(/^db-keys: .*db-jwt\.pub, .*db-jwt\.key and .*db-token are ready/);
    expect(readdirSync(keysDir).sort()).toEqual(["db-jwt.key", "db-jwt.pub", "db-token"]);
    const secured = await startSqld({
      dbPath: join(work, "db-auth", "data.sqld"),
      httpPort: await freePort(),
      authKeyFile: join(keysDir, "db-jwt.pub"),
    });
    try {
      await expect(run("db-migrate", { DATABASE_URL: secured.url })).rejects.toMatchObject({ stderr: expect.stringMatching(/401/) });
      const { stdout } = await run("db-migrate", {
        DATABASE_URL: secured.url,
        DATABASE_AUTH_TOKEN_FILE: join(keysDir, "db-token"),
        VIGIL_SECRET_KEY: SECRET_KEY,
      });
      expect(stdout.trim()).toBe(`db-migrate: ${secured.url} is up to date`);
    } finally {
      await secured.stop();
    }
  });

  it("its CMD starts the server from the image's own node_modules and answers /healthz", async () => {
    await runImage(
      server,
      "server",
      { DATABASE_URL: sqld.url, REDIS_URL: "redis://127.0.0.1:6379", VIGIL_SECRET_KEY: SECRET_KEY },
      (pid) => {
        // Nothing loads from this repository, and the HTTP-only libSQL client leaves the native SQLite library unloaded.
        const maps = readFileSync(`/proc/${pid}/maps`, "utf8");
        expect(maps).not.toContain(`${root}node_modules`);
        expect(maps).not.toMatch(/libsql\+linux-x64/);
      },
    );
  });

  it("the workflows and private-location images' CMDs answer /healthz", async () => {
    expect(workflows.dir).toBe(server.dir); // same runtime stage, its own CMD
    await runImage(workflows, "workflows", { DATABASE_URL: sqld.url, REDIS_URL: "redis://127.0.0.1:6379", VIGIL_SECRET_KEY: SECRET_KEY });
    await runImage(probe, "private-location", {
      SERVICE_KEY: "vgl_loc_image_build",
      SERVICE_INGEST_URL: "http://127.0.0.1:9",
      PROBE_DATA_DIR: join(work, "probe-data"),
    });
  });
});

/** Runs a target's CMD with its image ENV plus `env`, waits for /healthz, then stops it. */
async function runImage(
  image: Awaited<ReturnType<typeof build>>,
  service: string,
  env: Record<string, string>,
  check?: (pid: number) => void,
) {
  const port = await freePort();
  const [bin, ...args] = image.cmd!.map((part) => part.replace(/^\/app\//, `${image.dir}/`));
  const child = spawn(bin!, args, {
    cwd: image.dir,
    env: processEnv({
      PATH: process.env.PATH!,
      ...image.env,
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      QUEUE_PREFIX: `image-build-${process.pid}`,
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  try {
    const deadline = Date.now() + 30_000;
    let body: unknown;
    while (Date.now() < deadline && body === undefined && child.exitCode === null) {
      body = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) })
        .then((r) => (r.ok ? r.json() : undefined))
        .catch(() => undefined);
      if (body === undefined) await new Promise((r) => setTimeout(r, 200));
    }
    expect(body, output).toMatchObject({ status: "ok", service });
    check?.(child.pid!);
  } finally {
    child.kill("SIGTERM");
    if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
  }
}
