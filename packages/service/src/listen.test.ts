import { connect } from "node:net";
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

  it("does not wait for a connection that never sent a request (a client that gave up after connecting)", async () => {
    const started = await listen(new Hono(), { port: 0, host: "127.0.0.1", logger: createLogger("test", "silent"), handleSignals: false });
    const silent = connect(started.port, "127.0.0.1");
    await new Promise((r) => silent.once("connect", r));
    const dropped = new Promise((r) => silent.once("close", r));
    const t0 = Date.now();
    // Without dropping it, the shutdown waited for the headers timeout (66 s).
    await started.close();
    expect(Date.now() - t0).toBeLessThan(5_000);
    await dropped;
  });
});
