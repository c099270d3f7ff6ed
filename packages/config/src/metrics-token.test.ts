import { describe, expect, it } from "vitest";
import { metricsRefusal, metricsRefused, parseEnv, serviceEnv, z } from "./index";

const TOKEN = "a-metrics-token-of-32-characters";

describe("who may read /metrics", () => {
  it("only a scrape carrying the operator's token as a bearer token is let through", () => {
    expect(metricsRefusal(`Bearer ${TOKEN}`, TOKEN)).toBeNull();
    expect(metricsRefusal(`bearer ${TOKEN}`, TOKEN)).toBeNull();
    for (const header of [undefined, null, "", TOKEN, `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, "Bearer "]) {
      expect(metricsRefusal(header, TOKEN), String(header)).toBe('/metrics needs "Authorization: Bearer <VIGIL_METRICS_TOKEN>"');
    }
  });

  it("with no token set, every scrape is refused with a line saying to set VIGIL_METRICS_TOKEN", async () => {
    expect(metricsRefusal(`Bearer ${TOKEN}`, undefined)).toMatch(/^\/metrics is off: set VIGIL_METRICS_TOKEN/);
    expect(metricsRefusal("Bearer ", "")).toMatch(/set VIGIL_METRICS_TOKEN/);
    const res = metricsRefused(metricsRefusal(undefined, undefined)!);
    expect([res.status, res.headers.get("www-authenticate")]).toEqual([401, 'Bearer realm="metrics"']);
    expect(await res.text()).toContain("VIGIL_METRICS_TOKEN");
  });

  it("a token too short to be a secret stops the service at start, naming the variable", () => {
    const schema = z.object(serviceEnv(3001));
    expect(() => parseEnv(schema, { VIGIL_METRICS_TOKEN: "short" })).toThrow(/^VIGIL_METRICS_TOKEN: must be at least 16 characters/);
    expect(parseEnv(schema, { VIGIL_METRICS_TOKEN: TOKEN }).VIGIL_METRICS_TOKEN).toBe(TOKEN);
  });
});
