import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { EnvError, parseEnv } from "@vigil/config";
import { serviceBundle } from "@vigil/testing/service";
import { describe, expect, it } from "vitest";
import { ProbeEnv } from "./env";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const base = { SERVICE_KEY: "vgl_loc_abc", SERVICE_INGEST_URL: "http://127.0.0.1:3001" };

describe("the probe's deny list", () => {
  it("PROBE_DENY and PROBE_INSTANCE_URLS parse into rules; unset, nothing is denied", () => {
    const env = parseEnv(ProbeEnv, {
      ...base,
      PROBE_DENY: "10.0.0.0/8:5432,[fd00::/8]",
      PROBE_INSTANCE_URLS: "database=http://127.0.0.1:8080",
    });
    expect(env.PROBE_DENY.map((r) => [r.addresses, r.port])).toEqual([
      [["10.0.0.0/8"], 5432],
      [["fd00::/8"], undefined],
    ]);
    expect(env.PROBE_INSTANCE_URLS).toEqual([{ name: "database", url: "http://127.0.0.1:8080" }]);
    expect(parseEnv(ProbeEnv, base).PROBE_DENY).toEqual([]);
  });

  it("a bad entry names the variable, the entry and the rule", () => {
    expect(() => parseEnv(ProbeEnv, { ...base, PROBE_DENY: "10.0.0.0/8:5432,10.1.0.0/40:80" })).toThrow(
      new EnvError("PROBE_DENY", '"10.1.0.0/40:80": prefix must be 0-32 for IPv4'),
    );
    expect(() => parseEnv(ProbeEnv, { ...base, PROBE_INSTANCE_URLS: "http://127.0.0.1:8080" })).toThrow(/^PROBE_INSTANCE_URLS: /);
  });

  it("the probe with an invalid PROBE_DENY prints one line naming it and exits 1", () => {
    const r = spawnSync(process.execPath, [serviceBundle("private-location")], {
      cwd: root,
      env: { ...process.env, ...base, PORT: "0", PROBE_DENY: "db.internal:5432" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(
      'private-location: invalid environment: PROBE_DENY "db.internal:5432": must be an IP address or CIDR block such as 10.0.0.0/8 or [fd00::/8]',
    );
  });
});
