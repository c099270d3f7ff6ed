// Compose files cannot run here (no Docker engine): check what can be checked without one.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as yaml from "js-yaml";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
type Service = {
  image?: string;
  build?: string;
  command?: string[];
  working_dir?: string;
  ports?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  restart?: string;
  depends_on?: string[];
};
const load = (f: string) =>
  yaml.load(readFileSync(`${root}${f}`, "utf8")) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const hostPorts = (s: Service) => (s.ports ?? []).map((p) => Number(p.split(":")[0]));

describe("docker-compose.yaml (full deployment)", () => {
  const { services, volumes } = load("docker-compose.yaml");

  it("publishes the spec's ports: workflows 3000, server 3001, dashboard 3002, status-page 3003, probe 8081, database 8080 and 5001", () => {
    expect(hostPorts(services.workflows!)).toEqual([3000]);
    expect(hostPorts(services.server!)).toEqual([3001]);
    expect(hostPorts(services.dashboard!)).toEqual([3002]);
    expect(hostPorts(services["status-page"]!)).toEqual([3003]);
    expect(hostPorts(services["private-location"]!)).toEqual([8081]);
    expect(hostPorts(services.libsql!)).toEqual([8080, 5001]);
  });

  it("the probe sends to the server on 3001 and keeps its outbox on a volume", () => {
    const probe = services["private-location"]!;
    expect(probe.environment?.SERVICE_INGEST_URL).toBe("http://server:3001");
    expect(probe.volumes).toContain(`probe-data:${probe.environment?.PROBE_DATA_DIR}`);
  });

  it("db-migrate is a one-shot that runs the same migration command as pnpm db:migrate", () => {
    expect(services["db-migrate"]!.restart).toBe("no");
    expect(services["db-migrate"]!.command).toEqual(["pnpm", "db:migrate"]);
    expect(JSON.parse(readFileSync(`${root}package.json`, "utf8")).scripts["db:migrate"]).toBeDefined();
  });

  it("Redis keeps an append-only file on a volume, so queued alerts survive its restart", () => {
    expect(services.redis!.command).toContain("--appendonly");
    expect(services.redis!.volumes?.[0]).toMatch(/^redis-data:/);
    expect(services.redis!.ports).toBeUndefined();
    expect(Object.keys(volumes)).toEqual(expect.arrayContaining(["libsql-data", "redis-data", "probe-data"]));
  });

  it("every app service's command is a file or binary that exists in the repo", () => {
    for (const [name, s] of Object.entries(services)) {
      if (!s.command || s.command[0] === "pnpm" || s.command[0]!.startsWith("redis")) continue;
      const cwd = s.working_dir ? `${root}${s.working_dir.replace(/^\/app\//, "")}/` : root;
      if (s.command[0] === "node") expect(s.command.slice(1, 3), name).toEqual(["--import", "tsx"]);
      else expect(existsSync(`${cwd}${s.command[0]}`), `${name}: ${s.command[0]}`).toBe(true);
      const entry = s.command.find((part) => part.endsWith(".ts"));
      if (entry) expect(existsSync(`${cwd}${entry}`), `${name}: ${entry}`).toBe(true);
    }
  });

  it("app services reach the database and Redis by service name", () => {
    for (const name of ["workflows", "server", "dashboard", "status-page"]) {
      expect(services[name]!.environment?.DATABASE_URL).toBe("http://libsql:8080");
    }
    expect(services.server!.environment?.REDIS_URL).toBe("redis://redis:6379");
  });
});

describe("docker-compose.lite.yaml (status page and dashboard only)", () => {
  const { services, volumes } = load("docker-compose.lite.yaml");

  it("has the database on 8080, dashboard on 3000, status page on 3001, and no server, workflows or probe", () => {
    expect(Object.keys(services).sort()).toEqual(["dashboard", "database", "db-migrate", "status-page"]);
    expect(hostPorts(services.database!)).toEqual([8080]);
    expect(hostPorts(services.dashboard!)).toEqual([3000]);
    expect(hostPorts(services["status-page"]!)).toEqual([3001]);
    expect(hostPorts(services["db-migrate"]!)).toEqual([]);
  });

  it("keeps all data in one volume", () => {
    expect(Object.keys(volumes)).toEqual(["vigil-data"]);
    expect(services.database!.volumes).toEqual(["vigil-data:/var/lib/sqld"]);
  });
});

describe(".env.example", () => {
  it("lists every variable the services read", () => {
    const text = readFileSync(`${root}.env.example`, "utf8");
    for (const v of [
      "DATABASE_URL",
      "REDIS_URL",
      "SERVICE_KEY",
      "SERVICE_INGEST_URL",
      "PROBE_DATA_DIR",
      "QUEUE_PREFIX",
      "DASHBOARD_URL",
      "EMAIL_PROVIDER_API_KEY",
      "SMTP_URL",
      "TELEGRAM_BOT_TOKEN",
      "TWILIO_ACCOUNT_SID",
    ]) {
      expect(text, v).toMatch(new RegExp(`^${v}=`, "m"));
    }
  });
});
