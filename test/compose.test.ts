// No Docker engine or compose v2 CLI here (Debian bookworm ships neither the compose plugin nor hadolint):
// both compose files and the Dockerfile are checked against the spec's tables and each other.
// test/images.stack.test.ts starts each service's image command outside Docker.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureDbKeys } from "@vigil/sqld";
import * as yaml from "js-yaml";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

type Healthcheck = { test?: string[] };
type Service = {
  image?: string;
  build?: { context: string; target: string };
  command?: string[];
  entrypoint?: string[];
  working_dir?: string;
  ports?: string[];
  environment?: Record<string, string | null>;
  env_file?: string;
  volumes?: string[];
  networks?: string[];
  network_mode?: string;
  user?: string;
  read_only?: boolean;
  tmpfs?: string[];
  cap_drop?: string[];
  cap_add?: string[];
  security_opt?: string[];
  restart?: string;
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: Healthcheck;
  deploy?: { replicas?: string | number };
  mem_limit?: string;
};
type Compose = {
  name: string;
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
  networks: Record<string, { internal?: boolean } | null>;
};

const read = (f: string) => readFileSync(join(root, f), "utf8");
// Compose resolves `<<:` merge keys (YAML 1.1) but otherwise reads YAML 1.2, as the core schema does.
const composeSchema = yaml.CORE_SCHEMA.withTags([yaml.mergeTag]);
const load = (f: string) => yaml.load(read(f), { schema: composeSchema }) as Compose;

/** Compose's own interpolation for `${VAR}`, `${VAR:-default}` and `${VAR:?error}` (what `docker compose config` does). */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, arg?: string) => {
    const value = env[name];
    if (value) return value;
    if (op === "?") throw new Error(`${name}: ${arg}`);
    return op === "-" ? (arg ?? "") : "";
  });
}

type Port = { ip: string; host: number; container: number };
const ports = (s: Service, env: Record<string, string> = {}): Port[] =>
  (s.ports ?? []).map((p) => {
    const parts = interpolate(p, env).split(":");
    const [ip, host, container] = parts.length === 3 ? parts : ["0.0.0.0", ...parts];
    return { ip: ip!, host: Number(host), container: Number(container) };
  });
const hostPorts = (s: Service) => ports(s).map((p) => p.host);

/** The Dockerfile's stages: name → its lines. */
function dockerStages(): Map<string, string[]> {
  const stages = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of read("Dockerfile").split("\n")) {
    const from = /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(line);
    if (from) {
      current = [line];
      stages.set(from[1]!, current);
    } else current.push(line);
  }
  return stages;
}
const stageChain = (stages: Map<string, string[]>, name: string): string[] => {
  const lines = stages.get(name) ?? [];
  const parent = /^FROM\s+(\S+)/i.exec(lines[0] ?? "")?.[1];
  return parent && stages.has(parent) ? [...stageChain(stages, parent), ...lines] : lines;
};
const jsonInstruction = (lines: string[], instruction: string) => {
  const found = lines.filter((l) => l.startsWith(`${instruction} `)).at(-1);
  return found ? (JSON.parse(found.slice(instruction.length + 1)) as string[]) : undefined;
};

/** Entries a package's `build` script bundles: dist name → source file. */
const buildOutputs = (app: string): string[] => {
  const script: string = JSON.parse(read(`apps/${app}/package.json`)).scripts?.build ?? "";
  return [...script.matchAll(/\s([\w.-]+)=/g)].map((m) => `/app/apps/${app}/dist/${m[1]}.js`);
};

const oneShots = ["db-keys", "db-migrate", "analytics-deploy", "cli"];

/**
 * Resident peaks at 1,000 monitors in MB (`pnpm bench stack`, bench/RESULTS.md "Whole stack: memory", the run
 * before the local malloc settings, which compose does not set). The local services process holds
 * workflows, the server and the probe at once: each of their containers holds less; the probe is measured
 * alone in the same run. The web apps: their peak while up.
 */
const PEAK_MB: Record<string, number> = {
  database: 43,
  workflows: 228,
  server: 228,
  "private-location": 150,
  dashboard: 136,
  "status-page": 120,
};
const UNITS: Record<string, number> = { k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 };
const memLimitMb = (s: Service) => {
  const m = /^(\d+)([kmg])$/.exec(s.mem_limit ?? "");
  return m ? (Number(m[1]) * UNITS[m[2]!]!) / 2 ** 20 : undefined;
};

for (const file of ["docker-compose.yaml", "docker-compose.lite.yaml"]) {
  describe(`${file}: memory limits`, () => {
    const { services } = load(file);
    it("every service has a mem_limit, and each one the stack bench measured at least 1.25 × its peak at 1,000 monitors", () => {
      for (const [name, s] of Object.entries(services)) {
        const limit = memLimitMb(s);
        expect(limit, `${name}: mem_limit ${s.mem_limit}`).toBeGreaterThanOrEqual(64);
        if (PEAK_MB[name]) expect(limit, name).toBeGreaterThanOrEqual(1.25 * PEAK_MB[name]);
      }
    });
  });
}

/** The services with a published port the public may reach, and which serve /metrics there. */
const METRICS_SERVICES: Record<string, string[]> = {
  "docker-compose.yaml": ["workflows", "server", "dashboard", "status-page", "private-location"],
  "docker-compose.lite.yaml": ["dashboard", "status-page"],
};

for (const [file, names] of Object.entries(METRICS_SERVICES)) {
  describe(`${file}: metrics`, () => {
    const { services } = load(file);
    it("every service serving /metrics gets VIGIL_METRICS_TOKEN, and compose refuses to start without it", () => {
      for (const name of names) {
        const value = services[name]!.environment?.VIGIL_METRICS_TOKEN;
        expect(value, name).toBeDefined();
        expect(() => interpolate(value!, {}), name).toThrow(/^VIGIL_METRICS_TOKEN: set VIGIL_METRICS_TOKEN in \.env/);
        expect(interpolate(value!, { VIGIL_METRICS_TOKEN: "t".repeat(32) }), name).toBe("t".repeat(32));
      }
    });
  });
}

describe("docker-compose.yaml (full deployment)", () => {
  const { services, volumes } = load("docker-compose.yaml");
  const longRunning = Object.entries(services).filter(([name]) => !oneShots.includes(name));

  it("runs one server and one workflows by default, and two of each with a host port apiece when asked", () => {
    const two = { SERVER_REPLICAS: "2", SERVER_PORTS: "3001-3002", WORKFLOWS_REPLICAS: "2", WORKFLOWS_PORTS: "3000-3001" };
    for (const name of ["server", "workflows"]) {
      const replicas = String(services[name]!.deploy?.replicas);
      expect(interpolate(replicas, {}), name).toBe("1");
      expect(interpolate(replicas, two), name).toBe("2");
    }
    // Compose gives each replica one host port of the range.
    expect(services.server!.ports!.map((p) => interpolate(p, two))).toEqual(["3001-3002:3001"]);
    expect(services.workflows!.ports!.map((p) => interpolate(p, two))).toEqual(["127.0.0.1:3000-3001:3000"]);
  });

  it("has the spec's components on its ports: workflows 3000, server 3001, dashboard 3002, status-page 3003, probe 8081, database 8080 and 5001, analytics 7181", () => {
    expect(hostPorts(services.workflows!)).toEqual([3000]);
    expect(hostPorts(services.server!)).toEqual([3001]);
    expect(hostPorts(services.dashboard!)).toEqual([3002]);
    expect(hostPorts(services["status-page"]!)).toEqual([3003]);
    expect(hostPorts(services["private-location"]!)).toEqual([8081]);
    expect(ports(services.database!).map((p) => [p.host, p.container])).toEqual([
      [8080, 8080],
      [5001, 5001],
    ]);
    expect(ports(services.analytics!).map((p) => [p.host, p.container])).toEqual([[7181, 8123]]);
  });

  it("publishes no database, analytics or Redis port beyond 127.0.0.1 unless the operator asks", () => {
    for (const name of ["database", "analytics"]) {
      for (const p of ports(services[name]!)) expect(p.ip, `${name}:${p.host}`).toBe("127.0.0.1");
    }
    expect(services.redis!.ports).toBeUndefined();
    // Publishing the HTTP interface wider is one variable (every request needs the token); the replication
    // port never moves off loopback, because sqld does not authenticate it.
    expect(ports(services.database!, { DATABASE_BIND: "0.0.0.0" }).map((p) => [p.ip, p.host])).toEqual([
      ["0.0.0.0", 8080],
      ["127.0.0.1", 5001],
    ]);
  });

  it("the apps start only after db-migrate has completed, which waits for a healthy database", () => {
    expect(services["db-migrate"]!.restart).toBe("no");
    expect(services["db-migrate"]!.depends_on).toEqual({ database: { condition: "service_healthy" } });
    for (const name of ["workflows", "server", "dashboard", "status-page"]) {
      expect(services[name]!.depends_on?.["db-migrate"], name).toEqual({ condition: "service_completed_successfully" });
    }
    expect(services.server!.depends_on?.redis).toEqual({ condition: "service_healthy" });
    expect(services.workflows!.depends_on?.redis).toEqual({ condition: "service_healthy" });
    expect(services["private-location"]!.depends_on).toEqual({ server: { condition: "service_healthy" } });
  });

  it("Redis keeps an append-only file on a volume and is reachable only inside the stack", () => {
    expect(services.redis!.command).toEqual(expect.arrayContaining(["--appendonly", "yes"]));
    expect(services.redis!.volumes).toEqual(["redis:/data"]);
  });

  it("keeps data in named volumes: database, its keys, Redis, analytics and the probe's outbox", () => {
    expect(Object.keys(volumes).sort()).toEqual(["analytics", "database", "db-keys", "probe", "redis"]);
    expect(services.database!.volumes).toEqual(["database:/var/lib/sqld", "db-keys:/keys:ro"]);
    expect(services.analytics!.volumes).toEqual(["analytics:/var/lib/clickhouse"]);
    const probe = services["private-location"]!;
    expect(probe.volumes).toEqual([`probe:${probe.environment?.PROBE_DATA_DIR}`]);
    for (const [name, s] of Object.entries(services)) {
      for (const v of s.volumes ?? []) {
        const source = v.split(":")[0]!;
        if (!source.startsWith(".")) expect(Object.keys(volumes), `${name}: ${v}`).toContain(source);
      }
    }
  });

  it("ClickHouse takes its user and password from ANALYTICS_USER and ANALYTICS_API_KEY, and compose refuses to start without the key", () => {
    const env = services.analytics!.environment!;
    expect(interpolate(env.CLICKHOUSE_USER!, {})).toBe("default");
    expect(interpolate(env.CLICKHOUSE_USER!, { ANALYTICS_USER: "vigil" })).toBe("vigil");
    expect(() => interpolate(env.CLICKHOUSE_PASSWORD!, {})).toThrow(/^ANALYTICS_API_KEY: set ANALYTICS_API_KEY/);
    expect(interpolate(env.CLICKHOUSE_PASSWORD!, { ANALYTICS_API_KEY: "k" })).toBe("k");
    for (const name of ["workflows", "server", "dashboard", "status-page", "analytics-deploy"]) {
      expect(services[name]!.environment?.ANALYTICS_URL, name).toBe("http://analytics:8123");
    }
  });

  it("the probe runs only under its profile, sends to the server on 3001 and takes SERVICE_KEY from .env", () => {
    const probe = services["private-location"]!;
    expect(probe.profiles).toEqual(["probe"]);
    expect(probe.environment?.SERVICE_INGEST_URL).toBe("http://server:3001");
    expect(interpolate(probe.environment!.SERVICE_KEY!, { SERVICE_KEY: "vgl_loc_k" })).toBe("vgl_loc_k");
    // Unset, compose still starts the rest of the stack; the probe itself refuses with a line naming it.
    expect(interpolate(probe.environment!.SERVICE_KEY!, {})).toBe("");
    expect(services["analytics-deploy"]!.profiles).toEqual(["tools"]);
    expect(services["analytics-deploy"]!.depends_on).toEqual({ analytics: { condition: "service_healthy" } });
    expect(services.cli!.profiles).toEqual(["tools"]);
    const always = Object.entries(services).filter(([, s]) => !s.profiles);
    expect(always.map(([n]) => n).sort()).toEqual([
      "analytics",
      "dashboard",
      "database",
      "db-keys",
      "db-migrate",
      "redis",
      "server",
      "status-page",
      "workflows",
    ]);
  });

  it("every long-running service restarts unless stopped and has a healthcheck; each app's checks /healthz on its own port", () => {
    for (const [name, s] of longRunning) {
      expect(s.restart, name).toBe("unless-stopped");
      expect(s.healthcheck?.test, name).toBeDefined();
      const port = s.environment?.PORT;
      if (port) expect(s.healthcheck!.test!.join(" "), name).toContain(`http://127.0.0.1:${port}/healthz`);
    }
    for (const name of oneShots) expect(services[name]!.restart, name).toBe("no");
  });

  it("app services reach the database, Redis and the server by service name", () => {
    for (const name of ["db-migrate", "workflows", "server", "dashboard", "status-page"]) {
      expect(services[name]!.environment?.DATABASE_URL, name).toBe("http://database:8080");
    }
    for (const name of ["server", "workflows", "dashboard"]) {
      expect(interpolate(services[name]!.environment!.REDIS_URL!, { REDIS_PASSWORD: "pw" }), name).toBe("redis://:pw@redis:6379");
    }
    expect(services.cli!.environment?.VIGIL_API_URL).toBe("http://server:3001");
  });

  it("Node services run a bundle their app's build script produces, never TypeScript through tsx", () => {
    for (const [name, s] of Object.entries(services)) {
      if (!s.build || !s.command) continue;
      const app = /^\/app\/apps\/([\w-]+)\//.exec(s.command.find((c) => c.startsWith("/app/")) ?? "")?.[1];
      expect(app, name).toBeDefined();
      expect(s.command.join(" "), name).not.toMatch(/tsx|\.ts\b/);
      if (s.command.some((c) => c.includes("/dist/"))) expect(buildOutputs(app!), name).toContain(s.command.at(-1));
      else expect(s.command.at(-1), name).toBe(`/app/apps/${app}/server.js`); // Next.js standalone
    }
  });
});

describe("docker-compose.lite.yaml (status page and dashboard only)", () => {
  const { services, volumes } = load("docker-compose.lite.yaml");

  it("has the database on 8080, dashboard on 3000, status page on 3001, a one-shot db-migrate, and no server, workflows, analytics or probe", () => {
    expect(Object.keys(services).sort()).toEqual(["dashboard", "database", "db-keys", "db-migrate", "status-page"]);
    expect(hostPorts(services.database!)).toEqual([8080]);
    expect(ports(services.database!)[0]!.ip).toBe("127.0.0.1");
    expect(hostPorts(services.dashboard!)).toEqual([3000]);
    expect(hostPorts(services["status-page"]!)).toEqual([3001]);
    expect(services["db-migrate"]!.ports).toBeUndefined();
    expect(services["db-migrate"]!.restart).toBe("no");
  });

  it("keeps all data in one volume, and the database's keys in another", () => {
    expect(Object.keys(volumes)).toEqual(["data", "db-keys"]);
    const mounts = new Set(Object.values(services).flatMap((s) => s.volumes ?? []));
    expect([...mounts].sort()).toEqual(["data:/var/lib/sqld", "db-keys:/keys", "db-keys:/keys:ro"]);
  });

  it("the dashboard and status page wait for migrations, which wait for a healthy database", () => {
    expect(services["db-migrate"]!.depends_on).toEqual({ database: { condition: "service_healthy" } });
    for (const name of ["dashboard", "status-page"]) {
      expect(services[name]!.depends_on, name).toEqual({ "db-migrate": { condition: "service_completed_successfully" } });
      expect(services[name]!.healthcheck?.test?.join(" "), name).toContain(`http://127.0.0.1:${services[name]!.environment?.PORT}/healthz`);
      expect(services[name]!.restart, name).toBe("unless-stopped");
    }
  });

  it("uses the same images and commands as the full deployment", () => {
    const full = load("docker-compose.yaml").services;
    for (const name of ["db-keys", "database", "db-migrate", "dashboard", "status-page"]) {
      expect(services[name]!.image, name).toBe(full[name]!.image);
      expect(services[name]!.build, name).toEqual(full[name]!.build);
      expect(services[name]!.command, name).toEqual(full[name]!.command);
    }
  });
});

describe("Dockerfile", () => {
  const stages = dockerStages();
  const built = ["docker-compose.yaml", "docker-compose.lite.yaml"].flatMap((f) => Object.values(load(f).services).filter((s) => s.build));
  const targets = new Set(built.map((s) => s.build!.target));

  it("has a target for every image compose builds, each running as the unprivileged node user", () => {
    expect([...targets].sort()).toEqual(["cli", "dashboard", "private-location", "server", "status-page", "workflows"]);
    for (const target of targets) {
      expect(stages.has(target), target).toBe(true);
      expect(
        stageChain(stages, target)
          .filter((l) => l.startsWith("USER "))
          .at(-1),
        target,
      ).toBe("USER node");
    }
  });

  it("each service image runs the command compose runs and checks its own /healthz", () => {
    for (const target of targets) {
      if (target === "cli") continue;
      const lines = stageChain(stages, target);
      // One-shots (db-migrate, analytics-deploy) reuse the server image with their own command.
      const service = built.find((s) => s.build!.target === target && s.restart !== "no")!;
      expect(jsonInstruction(lines, "CMD"), target).toEqual(service.command);
      expect(lines.join("\n"), target).toMatch(/HEALTHCHECK[^\n]*\\\n\s+CMD \[[^\n]*\/healthz/);
      const port = lines.filter((l) => /^ENV PORT=/.test(l)).at(-1);
      expect(port, target).toBeDefined();
    }
  });

  it("builds from a pruned workspace in separate stages, and Next apps from their standalone output", () => {
    const text = read("Dockerfile");
    expect(text.match(/^RUN turbo prune /gm)?.length).toBe(2);
    expect(text).toMatch(/ENV NEXT_OUTPUT=standalone/);
    expect(stageChain(stages, "dashboard").join("\n")).toContain("/app/apps/dashboard/.next/standalone/");
    expect(stageChain(stages, "status-page").join("\n")).toContain("/app/apps/status-page/.next/standalone/");
    expect(text).not.toMatch(/--import\s*"?,?\s*"?tsx/);
  });

  it("keeps secrets and local state out of the build context", () => {
    const ignored = read(".dockerignore").split("\n");
    for (const entry of [".env", ".git", ".data", "**/node_modules", "**/dist", "**/.next"]) expect(ignored).toContain(entry);
  });
});

// ── .env.example against the config schemas ────────────────────────────────────────────────────────

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (["node_modules", ".next", "dist", "testing"].includes(name)) return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}
const workspaceSources = () =>
  ["apps", "packages"].flatMap((group) => readdirSync(join(root, group)).flatMap((pkg) => sourceFiles(join(root, group, pkg))));

/** Every variable any env schema reads: exported `…Env` zod objects, plus inline schemas given to loadEnv/parseEnv. */
async function schemaVariables(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const file of workspaceSources()) {
    const text = readFileSync(file, "utf8");
    const where = relative(root, file);
    if (/export const \w+Env\s*=\s*(z\s*\.object|\w+\.extend)\(/.test(text)) {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        const shape = (value as { shape?: Record<string, unknown> } | null)?.shape;
        if (name.endsWith("Env") && shape) for (const key of Object.keys(shape)) found.set(key, where);
      }
    }
    for (const call of text.matchAll(/\b(?:loadEnv|parseEnv)\(/g)) {
      let depth = 0;
      let end = call.index + call[0].length - 1;
      for (; end < text.length; end++) {
        if (text[end] === "(") depth++;
        else if (text[end] === ")" && --depth === 0) break;
      }
      for (const key of text.slice(call.index, end).matchAll(/\b([A-Z][A-Z0-9_]{2,})\s*:/g)) found.set(key[1]!, where);
    }
  }
  return found;
}

describe(".env.example", () => {
  const text = read(".env.example");
  const listed = new Set([...text.matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!));

  it("lists every variable the config schemas read, found from the schemas themselves", async () => {
    const vars = await schemaVariables();
    // The schemas this test must find, so a broken search cannot pass quietly.
    for (const known of ["SERVICE_KEY", "REDIS_URL", "DATABASE_URL", "TELEGRAM_BOT_TOKEN", "QUEUE_PREFIX"])
      expect(vars.has(known), known).toBe(true);
    const missing = [...vars].filter(([v]) => !listed.has(v)).map(([v, file]) => `${v} (${file})`);
    expect(missing).toEqual([]);
  });

  it("lists nothing that no schema, compose file or the CLI reads", async () => {
    const vars = await schemaVariables();
    const compose = read("docker-compose.yaml") + read("docker-compose.lite.yaml");
    const fromCompose = new Set([...compose.matchAll(/\$\{(\w+)/g), ...compose.matchAll(/^\s+(\w+):\s*$/gm)].map((m) => m[1]!));
    const fromCli = new Set([...read("apps/cli/src/config.ts").matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
    const stale = [...listed].filter((v) => !vars.has(v) && !fromCompose.has(v) && !fromCli.has(v));
    expect(stale).toEqual([]);
  });

  it("sets no secret: keys and passwords are empty until the operator fills them in", () => {
    for (const m of text.matchAll(/^([A-Z][A-Z0-9_]*(?:SECRET|TOKEN|API_KEY|PASSWORD|_KEY))=(.*)$/gm)) {
      expect(m[2], m[1]).toBe("");
    }
  });
});

// ── Least privilege: networks, environment, keys, ports, images, capabilities ─────────────────────

/** .env after docs/self-hosting.md step 1 (the secrets it generates), and step 9 for the probe. */
const dotEnv: Record<string, string> = {};
for (const m of read(".env.example").matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)) dotEnv[m[1]!] = m[2]!;
Object.assign(dotEnv, {
  AUTH_SECRET: "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==",
  REDIS_PASSWORD: "cd".repeat(32),
  ANALYTICS_API_KEY: "ab".repeat(32),
  VIGIL_SECRET_KEY: "a2V5LWtleS1rZXkta2V5LWtleS1rZXkta2V5LWtleS0=",
  VIGIL_METRICS_TOKEN: "ef".repeat(32),
  SERVICE_KEY: "vgl_loc_example",
});

/** A service's environment as compose hands it over with this .env: only what the file lists, interpolated. */
const composedEnv = (s: Service, env = dotEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, interpolate(v ?? "", env)]));

/** The networks a service is attached to (compose's `default` when it names none). */
const networksOf = (s: Service): string[] => (s.network_mode ? [] : (s.networks ?? ["default"]));
const shareNetwork = (a: Service, b: Service) => networksOf(a).some((n) => networksOf(b).includes(n));

type Schema = import("../packages/config/src/index").z.ZodObject;
/**
 * What each service's program reads, from the program itself: its env schema's keys, or the variables a
 * small entry point reads from process.env. Next.js' own server reads PORT and HOSTNAME.
 */
async function readVariables(): Promise<Record<string, Set<string>>> {
  const keys = (schema: Schema) => Object.keys(schema.shape);
  const fromSource = (file: string) => [...read(file).matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!);
  const analytics = keys((await import("../packages/analytics/src/env")).AnalyticsEnv);
  return {
    server: new Set(keys((await import("../apps/server/src/env")).ServerEnv)),
    workflows: new Set(keys((await import("../apps/workflows/src/env")).WorkflowsEnv)),
    "private-location": new Set(keys((await import("../apps/private-location/src/env")).ProbeEnv)),
    dashboard: new Set([...keys((await import("../apps/dashboard/lib/env")).DashboardEnv), "PORT", "HOSTNAME"]),
    "status-page": new Set([...keys((await import("../apps/status-page/lib/env")).StatusPageEnv), "PORT", "HOSTNAME"]),
    "db-migrate": new Set(fromSource("packages/db-schema/src/migrate-cli.ts")),
    "analytics-deploy": new Set(analytics),
    cli: new Set(fromSource("apps/cli/src/config.ts")),
  };
}
/**
 * Read by the parts of this issue built beside this one: every database user reads its token from
 * DATABASE_AUTH_TOKEN_FILE, db-keys writes into DB_KEYS_DIR, and the services that hold secrets decrypt
 * them with VIGIL_SECRET_KEY.
 */
const alsoRead: Record<string, string[]> = {
  "db-keys": ["DB_KEYS_DIR"],
  "db-migrate": ["DATABASE_AUTH_TOKEN_FILE", "VIGIL_SECRET_KEY"],
  server: ["DATABASE_AUTH_TOKEN_FILE", "VIGIL_SECRET_KEY"],
  workflows: ["DATABASE_AUTH_TOKEN_FILE", "VIGIL_SECRET_KEY"],
  dashboard: ["DATABASE_AUTH_TOKEN_FILE", "VIGIL_SECRET_KEY"],
  // Webhook and Slack subscribers' URLs and signing secrets are stored encrypted.
  "status-page": ["DATABASE_AUTH_TOKEN_FILE", "VIGIL_SECRET_KEY"],
};
const thirdParty = ["database", "redis", "analytics"];

for (const file of ["docker-compose.yaml", "docker-compose.lite.yaml"]) {
  describe(`${file}: least privilege`, () => {
    const { services, networks } = load(file);
    const usesDatabase = Object.entries(services).filter(([, s]) => s.environment?.DATABASE_URL !== undefined);

    it("no service gets the whole .env: each lists only the variables its program reads", async () => {
      const reads = await readVariables();
      for (const [name, s] of Object.entries(services)) {
        expect(s.env_file, name).toBeUndefined();
        if (thirdParty.includes(name)) continue;
        const allowed = new Set([...(reads[name] ?? []), ...(alsoRead[name] ?? [])]);
        const extra = Object.keys(s.environment ?? {}).filter((k) => !allowed.has(k));
        expect(extra, name).toEqual([]);
      }
    });

    it("every service runs with no capabilities and no privilege gain; only the probe may open raw sockets (ICMP)", () => {
      for (const [name, s] of Object.entries(services)) {
        expect(s.cap_drop, name).toEqual(["ALL"]);
        expect(s.security_opt, name).toContain("no-new-privileges:true");
        expect(s.cap_add ?? [], name).toEqual(name === "private-location" ? ["NET_RAW"] : []);
        expect(s.user ?? "", name).not.toMatch(/^(0|root)(:|$)/);
      }
    });

    it("our services run on a read-only root filesystem with a tmpfs /tmp, and Next.js with its cache on tmpfs", () => {
      for (const [name, s] of Object.entries(services)) {
        if (!s.build) continue;
        expect(s.read_only, name).toBe(true);
        expect(s.tmpfs, name).toContain("/tmp");
        if (s.command?.at(-1)?.endsWith("/server.js")) expect(s.tmpfs, name).toContain(`/app/apps/${name}/.next/cache`);
      }
    });

    it("third-party images are pinned: no `latest` and no missing tag by default", () => {
      for (const [name, s] of Object.entries(services)) {
        if (s.build) continue; // ours, built from this checkout
        const image = interpolate(s.image!, {});
        const tag = /:([^/:]+)$/.exec(image)?.[1];
        expect(tag, `${name}: ${image}`).toBeDefined();
        expect(tag, `${name}: ${image}`).not.toBe("latest");
      }
      expect(interpolate(services.database!.image!, {})).toBe("ghcr.io/tursodatabase/libsql-server:v0.24.32");
    });

    it("the backend network is internal and holds the database; only services that use the database, Redis or analytics share a network with it", () => {
      expect(networks.backend?.internal).toBe(true);
      expect(networksOf(services.database!)).toContain("backend");
      for (const [name, s] of Object.entries(services)) {
        if (thirdParty.includes(name) || !shareNetwork(s, services.database!)) continue;
        const uses = ["DATABASE_URL", "REDIS_URL", "ANALYTICS_URL"].some((v) => s.environment?.[v] !== undefined);
        expect(uses, `${name} shares a network with the database`).toBe(true);
      }
      // The database's second network exists only to publish it on the host's loopback.
      for (const n of networksOf(services.database!).filter((n) => n !== "backend")) {
        const members = Object.entries(services).filter(([, s]) => networksOf(s).includes(n));
        expect(
          members.map(([m]) => m).filter((m) => !thirdParty.includes(m)),
          n,
        ).toEqual([]);
      }
    });

    it("sqld requires a token: its key comes from the db-keys one-shot, and every database user mounts the token read-only", () => {
      const db = services.database!;
      expect(db.environment?.SQLD_AUTH_JWT_KEY_FILE).toBe("/keys/db-jwt.pub");
      expect(db.environment).not.toHaveProperty("SQLD_AUTH_JWT_KEY");
      expect(db.volumes).toContain("db-keys:/keys:ro");
      expect(db.depends_on?.["db-keys"]).toEqual({ condition: "service_completed_successfully" });
      const keys = services["db-keys"]!;
      expect(keys.command).toEqual(["node", "/app/apps/server/dist/db-keys.js"]);
      expect(keys.environment).toEqual({ DB_KEYS_DIR: "/keys" });
      expect(keys.volumes).toEqual(["db-keys:/keys"]);
      expect(keys.network_mode).toBe("none");
      expect(keys.restart).toBe("no");
      expect(usesDatabase.length).toBeGreaterThan(2);
      for (const [name, s] of usesDatabase) {
        expect(s.environment?.DATABASE_AUTH_TOKEN_FILE, name).toBe("/keys/db-token");
        expect(s.environment, name).not.toHaveProperty("DATABASE_AUTH_TOKEN");
        expect(s.volumes, name).toContain("db-keys:/keys:ro");
      }
      // Nobody else sees the keys.
      for (const [name, s] of Object.entries(services)) {
        if (name === "db-keys" || name === "database" || usesDatabase.some(([n]) => n === name)) continue;
        expect(s.volumes?.filter((v) => v.startsWith("db-keys:")) ?? [], name).toEqual([]);
      }
    });

    it("compose refuses to start without AUTH_SECRET and VIGIL_SECRET_KEY, naming the variable and how to make one", () => {
      const env = { ...dotEnv };
      delete env.VIGIL_SECRET_KEY;
      expect(() => composedEnv(services.dashboard!, env)).toThrow(/^VIGIL_SECRET_KEY: set VIGIL_SECRET_KEY in \.env \(openssl rand/);
      const noAuth = { ...dotEnv };
      delete noAuth.AUTH_SECRET;
      expect(() => composedEnv(services["status-page"]!, noAuth)).toThrow(/^AUTH_SECRET: set AUTH_SECRET in \.env/);
      for (const name of ["db-migrate", "dashboard", "status-page"]) {
        expect(composedEnv(services[name]!).VIGIL_SECRET_KEY, name).toBe(dotEnv.VIGIL_SECRET_KEY);
      }
    });

    it("only the dashboard and status page (and, in the full deployment, the server) are published on all interfaces", () => {
      const wide = Object.entries(services)
        .filter(([, s]) => ports(s).some((p) => p.ip === "0.0.0.0"))
        .map(([n]) => n)
        .sort();
      expect(wide).toEqual(file === "docker-compose.yaml" ? ["dashboard", "server", "status-page"] : ["dashboard", "status-page"]);
      for (const [name, s] of Object.entries(services)) {
        if (!wide.includes(name)) for (const p of ports(s)) expect(p.ip, `${name}:${p.host}`).toBe("127.0.0.1");
      }
    });
  });
}

describe("docker-compose.yaml: the probe cannot reach the instance's internals", () => {
  const { services, networks } = load("docker-compose.yaml");
  const probe = services["private-location"]!;

  it("the probe is on no network with the database, Redis or analytics, and shares one with the server", () => {
    for (const internal of thirdParty) expect(shareNetwork(probe, services[internal]!), internal).toBe(false);
    expect(shareNetwork(probe, services.server!)).toBe(true);
    // Its network reaches the outside world (its checks), and holds the server and nothing else.
    for (const n of networksOf(probe)) {
      expect(networks[n]?.internal ?? false, n).toBe(false);
      const members = Object.entries(services).filter(([, s]) => networksOf(s).includes(n));
      expect(members.map(([m]) => m).sort(), n).toEqual(["private-location", "server"]);
    }
  });

  it("the database, Redis and analytics sit on the internal backend network, and every service that reaches them is ours", () => {
    for (const name of thirdParty) expect(networksOf(services[name]!), name).toContain("backend");
    expect(networksOf(services.redis!)).toEqual(["backend"]);
    const onBackend = Object.entries(services)
      .filter(([, s]) => networksOf(s).includes("backend"))
      .map(([n]) => n)
      .sort();
    expect(onBackend).toEqual([
      "analytics",
      "analytics-deploy",
      "dashboard",
      "database",
      "db-migrate",
      "redis",
      "server",
      "status-page",
      "workflows",
    ]);
    // Alerts and mail leave through a network with a way out.
    for (const name of ["workflows", "dashboard", "status-page", "server"]) {
      expect(
        networksOf(services[name]!).some((n) => !networks[n]?.internal),
        name,
      ).toBe(true);
    }
  });

  it("the probe gets its key, the server's address and its own settings, and no database, Redis, analytics or signing secret", () => {
    const names = Object.keys(probe.environment ?? {});
    expect(names.filter((n) => /^(DATABASE_|REDIS_|ANALYTICS_|AUTH_|VIGIL_SECRET|QUEUE_)/.test(n))).toEqual([]);
    // The metrics token opens its own /metrics only.
    expect(names.filter((n) => !/^(SERVICE_KEY|SERVICE_INGEST_URL|PROBE_\w+|LOG_LEVEL|PORT|HOST|VIGIL_METRICS_TOKEN)$/.test(n))).toEqual(
      [],
    );
    expect(probe.volumes).toEqual(["probe:/data/probe"]);
  });

  it("the cli tool reaches the server only, with only its address and API token", () => {
    const cli = services.cli!;
    expect(Object.keys(cli.environment ?? {}).sort()).toEqual(["VIGIL_API_TOKEN", "VIGIL_API_URL"]);
    for (const [name, s] of Object.entries(services)) {
      if (name !== "cli" && name !== "server") expect(shareNetwork(cli, s), name).toBe(false);
    }
    expect(shareNetwork(cli, services.server!)).toBe(true);
  });

  it("Redis requires REDIS_PASSWORD: the server, its healthcheck and the apps' REDIS_URL all use it, and compose refuses without it", () => {
    const redis = services.redis!;
    const command = redis.command!.map((c) => interpolate(c, dotEnv));
    expect(command.slice(command.indexOf("--requirepass"), command.indexOf("--requirepass") + 2)).toEqual([
      "--requirepass",
      dotEnv.REDIS_PASSWORD,
    ]);
    expect(composedEnv(redis).REDISCLI_AUTH).toBe(dotEnv.REDIS_PASSWORD);
    expect(redis.healthcheck?.test).toEqual(["CMD", "redis-cli", "ping"]);
    const users = Object.entries(services).filter(([, s]) => s.environment?.REDIS_URL !== undefined);
    expect(users.map(([n]) => n).sort()).toEqual(["dashboard", "server", "status-page", "workflows"]);
    for (const [name, s] of users) expect(composedEnv(s).REDIS_URL, name).toBe(`redis://:${dotEnv.REDIS_PASSWORD}@redis:6379`);
    const { REDIS_PASSWORD: _, ...without } = dotEnv;
    expect(() => composedEnv(services.server!, without)).toThrow(/^REDIS_PASSWORD: set REDIS_PASSWORD in \.env \(openssl rand -hex 32\)/);
  });

  it("ClickHouse's user has no access management, and the analytics migrations need none (no users, roles or grants)", () => {
    expect(services.analytics!.environment).not.toHaveProperty("CLICKHOUSE_DEFAULT_ACCESS_MANAGEMENT");
    const dir = join(root, "packages/analytics/clickhouse");
    const sql = readdirSync(dir).map((f) => read(`packages/analytics/clickhouse/${f}`));
    expect(sql.length).toBeGreaterThan(0);
    for (const text of sql) expect(text).not.toMatch(/\b(CREATE|ALTER|DROP)\s+(USER|ROLE|QUOTA|ROW POLICY|SETTINGS PROFILE)\b|\bGRANT\b/i);
  });

  it("workflows and the probe publish on the host's loopback until the operator opts in", () => {
    expect(ports(services.workflows!)).toEqual([{ ip: "127.0.0.1", host: 3000, container: 3000 }]);
    expect(ports(services.workflows!, { WORKFLOWS_BIND: "0.0.0.0" })[0]!.ip).toBe("0.0.0.0");
    expect(ports(probe)).toEqual([{ ip: "127.0.0.1", host: 8081, container: 8081 }]);
    expect(ports(probe, { PROBE_BIND: "0.0.0.0" })[0]!.ip).toBe("0.0.0.0");
  });
});

describe("docker-compose.lite.yaml: no Redis", () => {
  const { services } = load("docker-compose.lite.yaml");

  it("has no Redis, and its dashboard gets no REDIS_URL, so it never tries one", () => {
    expect(services).not.toHaveProperty("redis");
    for (const [name, s] of Object.entries(services)) expect(s.environment ?? {}, name).not.toHaveProperty("REDIS_URL");
    expect(composedEnv(services.dashboard!, { ...dotEnv, REDIS_URL: "redis://127.0.0.1:6379" })).not.toHaveProperty("REDIS_URL");
  });
});

describe("Dockerfile: app code is not writable by the user that runs it", () => {
  const text = read("Dockerfile");

  it("copies files as root and gives node only the probe's outbox and the keys directory", () => {
    expect(text).not.toMatch(/--chown/);
    const chowned = [...text.matchAll(/chown\s+(?:-R\s+)?node(?::node)?\s+([^&\n]+)/g)].flatMap((m) => m[1]!.trim().split(/\s+/));
    expect(chowned.sort()).toEqual(["/data/probe", "/keys"]);
  });
});

describe("the compose environment against each app's env schema", () => {
  // The apps read the database token from the db-keys volume: here a directory the real one-shot's code fills.
  const keysDir = mkdtempSync(join(tmpdir(), "vigil-compose-keys-"));
  ensureDbKeys(keysDir);
  afterAll(() => rmSync(keysDir, { recursive: true, force: true }));
  const inContainer = (env: Record<string, string>) =>
    Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.startsWith("/keys/") ? join(keysDir, v.slice("/keys/".length)) : v]));

  const schemas: Record<string, () => Promise<{ schema: Schema; crossCheck?: (e: never) => [string, string] | null }>> = {
    server: async () => ({ schema: (await import("../apps/server/src/env")).ServerEnv }),
    workflows: async () => ({ schema: (await import("../apps/workflows/src/env")).WorkflowsEnv }),
    "private-location": async () => ({ schema: (await import("../apps/private-location/src/env")).ProbeEnv }),
    dashboard: async () => {
      const m = await import("../apps/dashboard/lib/env");
      return { schema: m.DashboardEnv, crossCheck: m.crossCheck as (e: never) => [string, string] | null };
    },
    "status-page": async () => {
      const m = await import("../apps/status-page/lib/env");
      return { schema: m.StatusPageEnv, crossCheck: m.crossCheck as (e: never) => [string, string] | null };
    },
  };

  for (const file of ["docker-compose.yaml", "docker-compose.lite.yaml"]) {
    it(`every app in ${file} accepts the environment compose gives it from .env.example filled in as the setup steps say`, async () => {
      const { parseEnv } = await import("../packages/config/src/index");
      const { services } = load(file);
      for (const [name, service] of Object.entries(services)) {
        const schemaOf = schemas[name];
        if (!schemaOf) continue;
        const { schema, crossCheck } = await schemaOf();
        const parsed = parseEnv(schema, inContainer(composedEnv(service)));
        expect(crossCheck?.(parsed as never) ?? null, name).toBeNull();
      }
    });
  }

  it("the lite dashboard runs without Redis: its parsed environment has no REDIS_URL", async () => {
    const { parseEnv } = await import("../packages/config/src/index");
    const { DashboardEnv } = await import("../apps/dashboard/lib/env");
    const lite = parseEnv(DashboardEnv, inContainer(composedEnv(load("docker-compose.lite.yaml").services.dashboard!)));
    expect(lite.REDIS_URL).toBeUndefined();
    const full = parseEnv(DashboardEnv, inContainer(composedEnv(load("docker-compose.yaml").services.dashboard!)));
    expect(full.REDIS_URL).toBe(`redis://:${dotEnv.REDIS_PASSWORD}@redis:6379`);
  });
});
