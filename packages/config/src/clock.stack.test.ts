import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { installTestClock, TEST_CLOCK_VARIABLE } from "./clock";
import { EnvError } from "./errors";
import { type TestClock, testClock } from "./test-clock";

const DAY = 86_400_000;
const clockModule = fileURLToPath(new URL("./index.ts", import.meta.url));

/** A process that loads its env like a service and prints its time each time it is asked. */
function serviceProcess(env: Record<string, string>) {
  const script = `
    const { loadEnv, z } = await import(${JSON.stringify(clockModule)});
    loadEnv(z.object({}), "test");
    process.stdin.on("data", () => process.stdout.write(JSON.stringify({ now: Date.now(), date: new Date().getTime(), text: Date() }) + "\\n"));
    process.stdout.write("ready\\n");`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    env: { ...process.env, ...env },
  }) as ChildProcessWithoutNullStreams;
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  return {
    child,
    ready: async () => {
      const { value } = await lines.next();
      if (value !== "ready") throw new Error(`service did not start: ${stderr}`);
    },
    time: async () => {
      child.stdin.write("?\n");
      const { value } = await lines.next();
      return JSON.parse(value as string) as { now: number; date: number; text: string };
    },
    exit: () => new Promise<{ code: number | null; stderr: string }>((r) => child.on("exit", (code) => r({ code, stderr }))),
  };
}

let clock: TestClock | undefined;
afterEach(() => {
  clock?.close();
  clock = undefined;
});

describe("the test clock", () => {
  it("moves a service's Date.now(), new Date() and Date() by what the test advanced, while it runs", async () => {
    clock = testClock();
    const svc = serviceProcess(clock.env);
    try {
      await svc.ready();
      const before = await svc.time();
      expect(Math.abs(before.now - Date.now())).toBeLessThan(5_000);
      await clock.advance(3 * DAY);
      const after = await svc.time();
      for (const t of [after.now, after.date]) expect(Math.abs(t - (Date.now() + 3 * DAY))).toBeLessThan(5_000);
      expect(new Date(after.text).getTime()).toBeGreaterThan(Date.now() + 3 * DAY - 5_000);
    } finally {
      svc.child.kill();
    }
  }, 30_000);

  it("is refused in the images, naming the variable", async () => {
    clock = testClock();
    const svc = serviceProcess({ ...clock.env, VIGIL_IMAGE: "1" });
    svc.child.stdin.end();
    const { code, stderr } = await svc.exit();
    expect(code).toBe(1);
    expect(stderr).toContain(`${TEST_CLOCK_VARIABLE} is for tests only and cannot be set in a Vigil image`);
  }, 30_000);

  it("is off when the variable is unset, and a file holding anything but milliseconds is an error naming it", () => {
    expect(installTestClock({})).toBe(false);
    clock = testClock();
    const file = clock.env[TEST_CLOCK_VARIABLE]!;
    return import("node:fs").then(({ writeFileSync }) => {
      writeFileSync(file, "tomorrow");
      expect(() => installTestClock({ [TEST_CLOCK_VARIABLE]: file })).toThrow(EnvError);
      expect(() => installTestClock({ [TEST_CLOCK_VARIABLE]: file })).toThrow(/offset in milliseconds/);
    });
  });

  it("never moves backwards", async () => {
    clock = testClock();
    expect(() => clock!.advance(-1)).toThrow(/only moves forward/);
  });
});
