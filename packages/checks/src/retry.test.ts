import { afterEach, describe, expect, it } from "vitest";
import { backoffMs, runCheck } from "./index";
import { HttpCheck, TcpCheck } from "./kinds";
import { listenHttp, refusedPort } from "./testing/servers";

const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** Answers 503 to the first `failures` requests, then 200. */
async function flakyServer(failures: number) {
  let requests = 0;
  const s = await listenHttp((_req, res) => {
    requests++;
    res.statusCode = requests <= failures ? 503 : 200;
    res.end();
  });
  open.push(s);
  return { ...s, requests: () => requests };
}

describe("retries", () => {
  it("a flaky server failing the first 2 attempts ends in success after 3 attempts", async () => {
    const s = await flakyServer(2);
    const started = performance.now();
    const result = await runCheck(HttpCheck.parse({ kind: "http", url: s.origin, retry: 3 }));
    expect(result).toMatchObject({ status: "success", statusCode: 200, attempts: 3 });
    expect(s.requests()).toBe(3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(backoffMs(1) + backoffMs(2) - 5); // it backed off
  });

  it("a check that keeps failing runs 1 + retry attempts and reports the last one", async () => {
    const s = await flakyServer(100);
    const result = await runCheck(HttpCheck.parse({ kind: "http", url: s.origin, retry: 2 }));
    expect(result).toMatchObject({ status: "error", attempts: 3, errorMessage: "statusCode: expected 2xx, got 503" });
    expect(s.requests()).toBe(3);
  });

  it("retry defaults to 3, so a dead target gets 4 attempts", async () => {
    const port = await refusedPort();
    const result = await runCheck(TcpCheck.parse({ kind: "tcp", host: "127.0.0.1", port }));
    expect(result).toMatchObject({ status: "error", attempts: 4, errorMessage: `connection refused by 127.0.0.1:${port}` });
  });

  it("a degraded result is not retried", async () => {
    let requests = 0;
    const s = await listenHttp((_req, res) => {
      requests++;
      setTimeout(() => res.end(), 60);
    });
    open.push(s);
    const result = await runCheck(HttpCheck.parse({ kind: "http", url: s.origin, retry: 3, degradedAfterMs: 20 }));
    expect(result).toMatchObject({ status: "degraded", attempts: 1 });
    expect(requests).toBe(1);
  });

  it("retries stop at the deadline: no attempt starts that could not finish before it", async () => {
    const s = await listenHttp(() => {}); // never answers
    open.push(s);
    const deadline = Date.now() + 700;
    const result = await runCheck(HttpCheck.parse({ kind: "http", url: s.origin, retry: 10, timeoutMs: 250 }), { deadline });
    const finished = Date.now();
    expect(result.status).toBe("error");
    expect(finished).toBeLessThan(deadline + 2_000);
    // 250 ms, 200 ms pause, then at most the ~250 ms left: two attempts fit, a third would not.
    expect(result.attempts).toBe(2);
  });

  it("an attempt is cut short by the deadline rather than overrunning it", async () => {
    const s = await listenHttp(() => {});
    open.push(s);
    const deadline = Date.now() + 300;
    const result = await runCheck(HttpCheck.parse({ kind: "http", url: s.origin, retry: 0, timeoutMs: 10_000 }), { deadline });
    // Overrunning would take the attempt's own 10 s; a loaded machine may add scheduling delay, never seconds.
    expect(Date.now()).toBeLessThan(deadline + 2_000);
    const waited = Number(/timed out after (\d+) ms waiting for the response$/.exec(result.errorMessage ?? "")?.[1]);
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(300);
  });

  it("a deadline already past runs nothing and says so", async () => {
    const s = await flakyServer(0);
    const result = await runCheck(HttpCheck.parse({ kind: "http", url: s.origin }), { deadline: Date.now() - 1 });
    expect(result).toMatchObject({ status: "error", attempts: 0, errorMessage: "no time left before the deadline to run the check" });
    expect(s.requests()).toBe(0);
  });

  it("an abort during the backoff pause ends the check as aborted", async () => {
    const s = await flakyServer(100);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100); // after the first attempt, inside the 200 ms pause
    const result = await runCheck(HttpCheck.parse({ kind: "http", url: s.origin, retry: 3 }), { signal: controller.signal });
    expect(result).toMatchObject({ status: "error", errorMessage: "aborted", attempts: 1 });
    expect(s.requests()).toBe(1);
  });

  it("an already aborted signal gives an aborted result without throwing", async () => {
    const s = await flakyServer(0);
    const result = await runCheck(HttpCheck.parse({ kind: "http", url: s.origin }), { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ status: "error", errorMessage: "aborted" });
    expect(s.requests()).toBe(0);
  });
});
