import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createLogger, listen } from "./index";

describe("a service shutting down", () => {
  it("finishes once the request in flight is answered, not after the idle keep-alive time", async () => {
    const app = new Hono();
    app.get("/slow", async (c) => {
      await new Promise((r) => setTimeout(r, 300));
      return c.text("done");
    });
    const started = await listen(app, { port: 0, host: "127.0.0.1", logger: createLogger("test", "silent"), handleSignals: false });
    const reply = fetch(`http://127.0.0.1:${started.port}/slow`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    const closed = started.close().then(() => Date.now() - t0);
    expect(await reply).toBe("done");
    // The connection the client keeps alive is dropped as soon as it goes idle (65 s otherwise).
    expect(await closed).toBeLessThan(5_000);
  });
});
