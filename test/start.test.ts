// `pnpm start` on the embedded defaults: every service answers /healthz, Ctrl-C stops all, data survives.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "vigil-start-"));
const PORTS = { workflows: 3000, server: 3001, dashboard: 3002, "status-page": 3003, "private-location": 8081 };

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(): Run {
  const child = spawn("pnpm", ["start"], { cwd: root, env: { ...process.env, VIGIL_DATA_DIR: dataDir, FORCE_COLOR: "0" }, detached: true });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, output: () => out, exited };
}

async function waitHealthy(run: Run, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(Object.keys(PORTS) as (keyof typeof PORTS)[]);
  while (pending.size > 0) {
    if (Date.now() > deadline) throw new Error(`not healthy: ${[...pending].join(", ")}\n${run.output().slice(-3000)}`);
    if (run.child.exitCode !== null) throw new Error(`pnpm start exited\n${run.output().slice(-3000)}`);
    for (const name of [...pending]) {
      try {
        const res = await fetch(`http://127.0.0.1:${PORTS[name]}/healthz`, { signal: AbortSignal.timeout(1000) });
        const body = (await res.json()) as { status: string; service: string };
        if (res.ok && body.service === name) pending.delete(name);
      } catch {}
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function stop(run: Run) {
  process.kill(-run.child.pid!, "SIGINT");
  const timer = setTimeout(() => process.kill(-run.child.pid!, "SIGKILL"), 20_000);
  await run.exited;
  clearTimeout(timer);
}

const sql = async (statements: string[]) => {
  const res = await fetch("http://127.0.0.1:8080/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ statements }),
  });
  return (await res.json()) as { results: { rows: unknown[][] } }[];
};

let current: Run | undefined;
afterAll(async () => {
  if (current && current.child.exitCode === null) await stop(current);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("pnpm start", () => {
  it("brings every service up, stops them all on Ctrl-C, and a second start finds the same data", { timeout: 600_000 }, async () => {
    for (const port of [...Object.values(PORTS), 8080, 5001]) {
      await expect(fetch(`http://127.0.0.1:${port}/healthz`), `port ${port} is already taken`).rejects.toThrow();
    }
    current = start();
    await waitHealthy(current);
    const first = current.output();
    expect(first).toMatch(/\[setup\] Created workspace 1 "Local" with the UNLIMITED limits preset/);
    expect(first).toMatch(/\[server\] .*"msg":"listening"/);
    expect(first).toMatch(/VIGIL_API_TOKEN=vgl_key_/);
    await sql(["INSERT INTO workspace (name) VALUES ('kept across restarts')"]);

    await stop(current);
    for (const port of Object.values(PORTS)) {
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    }

    current = start();
    await waitHealthy(current);
    expect(current.output()).not.toMatch(/Created workspace/);
    expect(current.output()).not.toMatch(/Created private location/);
    const [res] = await sql(["SELECT name FROM workspace ORDER BY id"]);
    expect(res!.results.rows).toEqual([["Local"], ["kept across restarts"]]);
    await stop(current);
  });
});
