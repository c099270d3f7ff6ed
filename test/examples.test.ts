import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { monitorsJsonSchema, parseMonitorsYaml, serializeMonitorsYaml } from "@vigil/monitors-yaml";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("examples/monitors.yaml", () => {
  it("is valid and monitors the local install in the local probe's region", () => {
    const out = parseMonitorsYaml(readFileSync(`${root}examples/monitors.yaml`, "utf8"), "examples/monitors.yaml");
    if (!out.ok) expect.fail(out.errors.map((e) => JSON.stringify(e)).join("\n"));
    expect(out.monitors.map((m) => m.key)).toEqual(["vigil-api", "vigil-dashboard", "vigil-database"]);
    expect(out.monitors.every((m) => m.regions.join() === "iad")).toBe(true);
  });

  it("the schema its first line names ships beside it and is what `vigil schema` prints today", () => {
    const first = readFileSync(`${root}examples/monitors.yaml`, "utf8").split("\n")[0];
    expect(first).toBe("# yaml-language-server: $schema=./vigil.schema.json");
    expect(JSON.parse(readFileSync(`${root}examples/vigil.schema.json`, "utf8"))).toEqual(monitorsJsonSchema());
  });
});

describe("examples/check-kinds.yaml", () => {
  it("holds one valid monitor of each kind beyond HTTP and TCP, and writes back to the same monitors", () => {
    const text = readFileSync(`${root}examples/check-kinds.yaml`, "utf8");
    const out = parseMonitorsYaml(text, "examples/check-kinds.yaml");
    if (!out.ok) expect.fail(out.errors.map((e) => JSON.stringify(e)).join("\n"));
    expect(out.monitors.map((m) => m.kind)).toEqual(["http", "tls", "dns", "dns", "domain"]);
    const again = parseMonitorsYaml(serializeMonitorsYaml(out.monitors), "again.yaml");
    if (!again.ok) expect.fail(again.errors.map((e) => JSON.stringify(e)).join("\n"));
    expect(again.monitors).toEqual(out.monitors);
  });
});

describe("examples/protocol-checks.yaml", () => {
  it("holds one valid monitor of each protocol kind, its secrets taken from the environment", () => {
    const text = readFileSync(`${root}examples/protocol-checks.yaml`, "utf8");
    const env = {
      LIVE_FEED_AUTHORIZATION: "Bearer x",
      ORDERS_DB_CONNECTION: "postgres://monitor:pw@db.internal:5432/orders",
      SHOP_MARIADB_CONNECTION: "mariadb://monitor:pw@shop-db.internal/shop",
      SESSIONS_REDIS_CONNECTION: "rediss://:pw@sessions.internal:6380/0",
    };
    const out = parseMonitorsYaml(text, "examples/protocol-checks.yaml", { env });
    if (!out.ok) expect.fail(out.errors.map((e) => JSON.stringify(e)).join("\n"));
    expect(out.monitors.map((m) => m.kind)).toEqual(["ping", "grpc", "websocket", "postgres", "mysql", "redis"]);
    expect(parseMonitorsYaml(text, "examples/protocol-checks.yaml", { env: {} }).ok).toBe(false);
  });
});
