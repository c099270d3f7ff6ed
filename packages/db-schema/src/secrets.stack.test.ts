import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { serviceBundle } from "@vigil/testing/service";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertSecretsReadable, monitor, notificationChannel, parseSecretKey, SecretKeyError, setSecretKeyring, workspace } from "./index";
import { migrate } from "./migrate";
import { startTestDatabase, type TestDatabase } from "./testing";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const key = () => randomBytes(32).toString("base64");
const WEBHOOK = "https://hooks.example.com/T0/B0/webhook-secret-4f1c9e";
const HEADER = "Bearer header-secret-7d2a0b";
const OTLP = "otlp-secret-91ce33";

let t: TestDatabase;
let workspaceId: number;
beforeAll(async () => {
  t = await startTestDatabase();
  const [ws] = await t.db.insert(workspace).values({ name: "acme" }).returning({ id: workspace.id });
  workspaceId = ws!.id;
});
afterAll(async () => t?.close());
// Each test may set its own keyring; the next one starts from the environment's again.
afterEach(() => setSecretKeyring(undefined));

async function saveSecrets() {
  const [ch] = await t.db
    .insert(notificationChannel)
    .values({ workspaceId, name: `hook-${randomBytes(4).toString("hex")}`, kind: "webhook", config: { url: WEBHOOK } })
    .returning();
  const [m] = await t.db
    .insert(monitor)
    .values({
      workspaceId,
      kind: "http",
      frequency: "1m",
      regions: ["ams"],
      url: "https://api.example.com",
      headers: { authorization: HEADER, accept: "application/json" },
      otelHeaders: { "x-api-key": OTLP },
    })
    .returning();
  return { channelId: ch!.id, monitorId: m!.id };
}

const raw = async (sql: string, id: number) => String((await t.db.$client.execute({ sql, args: [id] })).rows[0]![0]);

describe("secrets at rest", () => {
  it("a saved webhook URL, secret header and OTLP header appear nowhere in the database's files", async () => {
    const { channelId, monitorId } = await saveSecrets();
    // The same search finds a value sqld did store in the clear: the files are the right ones.
    expect(t.onDisk("https://api.example.com")).toBe(true);
    for (const secret of [WEBHOOK, "webhook-secret-4f1c9e", HEADER, "header-secret-7d2a0b", OTLP]) expect(t.onDisk(secret)).toBe(false);
    expect(await raw("select config from notification_channel where id = ?", channelId)).toMatch(/^vgl1:[0-9a-f]{8}:[\w-]+$/);

    // Core reads plain objects, as before.
    const [ch] = await t.db.select().from(notificationChannel).where(eq(notificationChannel.id, channelId));
    expect(ch!.config).toEqual({ url: WEBHOOK });
    const [m] = await t.db.select().from(monitor).where(eq(monitor.id, monitorId));
    expect(m!.headers).toEqual({ authorization: HEADER, accept: "application/json" });
    expect(m!.otelHeaders).toEqual({ "x-api-key": OTLP });
  });

  it("a secret copied into another column does not read there", async () => {
    const { monitorId } = await saveSecrets();
    await t.db.$client.execute({ sql: "update monitor set otel_headers = headers where id = ?", args: [monitorId] });
    await expect(t.db.select().from(monitor).where(eq(monitor.id, monitorId))).rejects.toThrow(/VIGIL_SECRET_KEY .* monitor\.otel_headers/);
    await t.db.update(monitor).set({ otelHeaders: null }).where(eq(monitor.id, monitorId));
  });

  it("with a wrong key, the start check refuses in one line naming the rows, and a read is an error naming the key", async () => {
    const { channelId, monitorId } = await saveSecrets();
    setSecretKeyring(parseSecretKey(key()));
    const err = await assertSecretsReadable(t.db).catch((e) => e);
    expect(err).toBeInstanceOf(SecretKeyError);
    expect(err.message).not.toContain("\n");
    expect(err.message).toMatch(
      /^VIGIL_SECRET_KEY cannot decrypt stored secrets .*: notification_channel (\d+, )*\d+; monitor (\d+, )*\d+$/,
    );
    expect(err.message).toContain(String(channelId));
    expect(err.message).toContain(String(monitorId));
    await expect(t.db.select().from(notificationChannel).where(eq(notificationChannel.id, channelId))).rejects.toThrow(/VIGIL_SECRET_KEY/);
  });

  it("rotation: rows under k1 re-encrypt under k2 when k2 comes first, and read after k1 is removed", async () => {
    const k1 = `k1:${key()}`;
    const k2 = `k2:${key()}`;
    // Rows of earlier tests are under the test key: this step re-encrypts them too.
    setSecretKeyring(parseSecretKey(`${k1},${process.env.VIGIL_SECRET_KEY}`));
    await migrate(t.db);
    const { channelId, monitorId } = await saveSecrets();
    expect(await raw("select config from notification_channel where id = ?", channelId)).toMatch(/^vgl1:k1:/);

    setSecretKeyring(parseSecretKey(`${k2},${k1}`));
    expect(await migrate(t.db)).toBeGreaterThan(0);
    expect(await raw("select config from notification_channel where id = ?", channelId)).toMatch(/^vgl1:k2:/);
    expect(await raw("select headers from monitor where id = ?", monitorId)).toMatch(/^vgl1:k2:/);
    expect(await migrate(t.db)).toBe(0);

    setSecretKeyring(parseSecretKey(k2));
    await assertSecretsReadable(t.db);
    const [ch] = await t.db.select().from(notificationChannel).where(eq(notificationChannel.id, channelId));
    expect(ch!.config).toEqual({ url: WEBHOOK });

    // Back under the test key for the tests after this one.
    setSecretKeyring(parseSecretKey(`${process.env.VIGIL_SECRET_KEY},${k2}`));
    await migrate(t.db);
  });

  it("a legacy plaintext row is encrypted by the migration and reads the same", async () => {
    const { channelId, monitorId } = await saveSecrets();
    await t.db.$client.execute({
      sql: "update notification_channel set config = ? where id = ?",
      args: [JSON.stringify({ url: WEBHOOK }), channelId],
    });
    await t.db.$client.execute({
      sql: "update monitor set headers = ? where id = ?",
      args: [JSON.stringify({ authorization: HEADER }), monitorId],
    });
    // Read as before the migration: legacy plaintext is still understood.
    const [before] = await t.db.select().from(monitor).where(eq(monitor.id, monitorId));
    expect(before!.headers).toEqual({ authorization: HEADER });

    expect(await migrate(t.db)).toBe(2);
    expect(await raw("select config from notification_channel where id = ?", channelId)).toMatch(/^vgl1:/);
    expect(await raw("select headers from monitor where id = ?", monitorId)).toMatch(/^vgl1:/);
    const [ch] = await t.db.select().from(notificationChannel).where(eq(notificationChannel.id, channelId));
    expect(ch!.config).toEqual({ url: WEBHOOK });
    expect(await migrate(t.db)).toBe(0);
  });

  it("pnpm db:migrate with a key that cannot read the rows stops with one line naming VIGIL_SECRET_KEY", () => {
    const r = spawnSync(process.execPath, [serviceBundle("server", "db-migrate")], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: t.url, VIGIL_SECRET_KEY: key() },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^db-migrate: VIGIL_SECRET_KEY cannot decrypt stored secrets .*notification_channel \d/);
  });
});

describe("VIGIL_SECRET_KEY", () => {
  it("takes one bare key, or kid:key entries of which the first encrypts", () => {
    expect(parseSecretKey(key()).primary).toMatch(/^[0-9a-f]{8}$/);
    const ring = parseSecretKey(`new:${key()}, old:${key()}`);
    expect(ring.primary).toBe("new");
    expect([...ring.keys.keys()]).toEqual(["new", "old"]);
  });

  it("refuses a malformed value with a rule naming the variable", () => {
    for (const [value, rule] of [
      ["tooshort", /^VIGIL_SECRET_KEY must be a base64 32-byte key/],
      [`a:${key()},${key()}`, /^VIGIL_SECRET_KEY entry 2 has no key id/],
      [`a:${key()},a:${key()}`, /^VIGIL_SECRET_KEY key id "a" appears twice/],
      [`bad kid:${key()}`, /^VIGIL_SECRET_KEY key id "bad kid" must be/],
      [`k:${randomBytes(16).toString("base64")}`, /^VIGIL_SECRET_KEY must be a base64 32-byte key/],
    ] as const)
      expect(() => parseSecretKey(value)).toThrow(rule);
  });
});
