import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { monitor, notificationChannel, workspace } from "@vigil/db-schema";
import { freePort, startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { serviceBundle } from "@vigil/testing/service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));
let t: TestDatabase;
let ids: { channel: number; monitor: number };
beforeAll(async () => {
  t = await startTestDatabase();
  const [ws] = await t.db.insert(workspace).values({ name: "acme" }).returning();
  const [ch] = await t.db
    .insert(notificationChannel)
    .values({ workspaceId: ws!.id, name: "hook", kind: "webhook", config: { url: "https://hooks.example.com/secret" } })
    .returning();
  const [m] = await t.db
    .insert(monitor)
    .values({
      workspaceId: ws!.id,
      kind: "http",
      frequency: "1m",
      regions: ["ams"],
      url: "https://a.example.com",
      headers: { authorization: "Bearer x" },
    })
    .returning();
  ids = { channel: ch!.id, monitor: m!.id };
});
afterAll(async () => t?.close());

/** Runs the server's main as an operator would; resolves with its exit code and stderr. */
async function startServerWith(key: string) {
  const child = spawn(process.execPath, [serviceBundle("server")], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: t.url,
      VIGIL_SECRET_KEY: key,
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const timer = setTimeout(() => child.kill(), 30_000);
  const code = await new Promise<number | null>((r) => child.on("exit", r));
  clearTimeout(timer);
  return { code, lines: stderr.trim().split("\n") };
}

describe("VIGIL_SECRET_KEY at the server's start", () => {
  it("a key that cannot read the stored secrets stops the server with one line naming the rows", async () => {
    const { code, lines } = await startServerWith(randomBytes(32).toString("base64"));
    expect(code).toBe(1);
    expect(lines).toEqual([
      `server: VIGIL_SECRET_KEY cannot decrypt stored secrets (wrong key or key id removed): notification_channel ${ids.channel}; monitor ${ids.monitor}`,
    ]);
  });

  it("no key stops it with one line naming the variable", async () => {
    const { code, lines } = await startServerWith("");
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^server: VIGIL_SECRET_KEY is not set: it is required/);
  });

  it("a malformed key stops it with one line naming the variable and the rule", async () => {
    const { code, lines } = await startServerWith("not-a-key");
    expect(code).toBe(1);
    expect(lines).toEqual([expect.stringMatching(/^server: VIGIL_SECRET_KEY must be a base64 32-byte key/)]);
  });
});
