import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serviceBundle } from "@vigil/testing/service";
import { afterAll, describe, expect, it } from "vitest";
import { EnvError, env, parseEnv, z } from "./index";

const root = fileURLToPath(new URL("../../..", import.meta.url));

describe("environment parsing", () => {
  const Schema = z.object({ PORT: env.port(3001), DATABASE_URL: env.DATABASE_URL, SERVICE_KEY: z.string() });

  it("applies defaults and coerces numbers", () => {
    expect(parseEnv(Schema, { SERVICE_KEY: "k" })).toEqual({ PORT: 3001, DATABASE_URL: "http://127.0.0.1:8080", SERVICE_KEY: "k" });
    expect(parseEnv(Schema, { SERVICE_KEY: "k", PORT: "4000" }).PORT).toBe(4000);
  });

  it("an empty variable counts as unset", () => {
    expect(parseEnv(Schema, { SERVICE_KEY: "k", PORT: "" }).PORT).toBe(3001);
  });

  it("a missing required variable is named with the rule", () => {
    expect(() => parseEnv(Schema, {})).toThrow(new EnvError("SERVICE_KEY", "is required but not set"));
  });

  it("an invalid variable is named with the rule it breaks", () => {
    expect(() => parseEnv(Schema, { SERVICE_KEY: "k", DATABASE_URL: "nope" })).toThrow(/^DATABASE_URL: must be a URL/);
    expect(() => parseEnv(Schema, { SERVICE_KEY: "k", PORT: "70000" })).toThrow(/^PORT: /);
  });
});

describe("the database token from a file (DATABASE_AUTH_TOKEN_FILE)", () => {
  const Schema = z.object({ DATABASE_URL: env.DATABASE_URL, DATABASE_AUTH_TOKEN: env.DATABASE_AUTH_TOKEN });
  const dir = mkdtempSync(join(tmpdir(), "vigil-config-"));
  const file = join(dir, "db-token");
  writeFileSync(file, "header.claims.signature\n");

  it("reads the token once from the file, without its trailing newline", () => {
    expect(parseEnv(Schema, { DATABASE_AUTH_TOKEN_FILE: file }).DATABASE_AUTH_TOKEN).toBe("header.claims.signature");
  });

  it("DATABASE_AUTH_TOKEN set wins over the file", () => {
    expect(parseEnv(Schema, { DATABASE_AUTH_TOKEN: "direct", DATABASE_AUTH_TOKEN_FILE: file }).DATABASE_AUTH_TOKEN).toBe("direct");
  });

  it("a missing or empty file is named with the rule", () => {
    expect(() => parseEnv(Schema, { DATABASE_AUTH_TOKEN_FILE: join(dir, "nope") })).toThrow(
      new EnvError("DATABASE_AUTH_TOKEN_FILE", `cannot be read (${join(dir, "nope")}: ENOENT)`),
    );
    writeFileSync(join(dir, "empty"), "\n");
    expect(() => parseEnv(Schema, { DATABASE_AUTH_TOKEN_FILE: join(dir, "empty") })).toThrow(
      /^DATABASE_AUTH_TOKEN_FILE: names an empty file/,
    );
  });

  it("a service that does not talk to the database ignores it", () => {
    expect(parseEnv(z.object({ PORT: env.port(1) }), { DATABASE_AUTH_TOKEN_FILE: join(dir, "nope") })).toEqual({ PORT: 1 });
  });

  it("the server with an unreadable token file names the variable and exits 1", () => {
    const r = spawnSync(process.execPath, [serviceBundle("server")], {
      cwd: root,
      env: { ...process.env, PORT: "0", DATABASE_AUTH_TOKEN: "", DATABASE_AUTH_TOKEN_FILE: join(dir, "absent") },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`server: invalid environment: DATABASE_AUTH_TOKEN_FILE cannot be read (${join(dir, "absent")}: ENOENT)`);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));
});

describe("service start-up", () => {
  const run = (app: string, extra: Record<string, string>) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !["SERVICE_KEY", "SERVICE_INGEST_URL", "PORT"].includes(k)),
    );
    return spawnSync(process.execPath, [serviceBundle(app)], {
      cwd: root,
      env: { ...clean, ...extra } as NodeJS.ProcessEnv,
      encoding: "utf8",
      timeout: 30_000,
    });
  };

  it("the probe without SERVICE_KEY prints the variable's name and exits 1", () => {
    const r = run("private-location", { SERVICE_INGEST_URL: "http://127.0.0.1:3001", PORT: "0" });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe("private-location: invalid environment: SERVICE_KEY is required but not set");
  });

  it("the probe with a malformed SERVICE_INGEST_URL names that variable and exits 1", () => {
    const r = run("private-location", { SERVICE_KEY: "vgl_loc_abc", SERVICE_INGEST_URL: "server:3001", PORT: "0" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^private-location: invalid environment: SERVICE_INGEST_URL must be a URL/);
  });

  it("the server with an invalid REDIS_URL names it and exits 1", () => {
    const r = run("server", { REDIS_URL: "localhost:6379", PORT: "0" });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe("server: invalid environment: REDIS_URL must be a redis:// URL");
  });
});
