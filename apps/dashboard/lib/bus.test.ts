// The dashboard's probe bus as the lite deployment runs it: no REDIS_URL, no Redis connection at all.
import { afterAll, describe, expect, it } from "vitest";

const saved = { ...process.env };
afterAll(() => {
  process.env = saved;
});

describe("the dashboard without Redis (lite deployment)", () => {
  it("with REDIS_URL unset there is no probe bus, and a monitor change goes through without trying one", async () => {
    process.env = { NODE_ENV: "production", PATH: saved.PATH, AUTH_SECRET: "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==" };
    const { getBus, monitorsChanged } = await import("./bus");
    const { getEnv } = await import("./env");
    expect(getEnv().REDIS_URL).toBeUndefined();
    expect(getBus()).toBeNull();
    await expect(monitorsChanged(1)).resolves.toBeUndefined();
  });
});
