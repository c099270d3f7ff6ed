import { auditLog, workspace } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { presets, restricted } from "@vigil/limits";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, getEffectiveLimits, getWorkspace, setLimits, setPlan, ValidationError } from "../index";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

/** The operator's interface: sqld's own `POST /` with `{"statements": [...]}`, as the README shows. */
async function operator(statements: string[]) {
  const res = await fetch(`${t.url}/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ statements }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { results?: { columns: string[]; rows: unknown[][] }; error?: unknown }[];
}

describe("the operator's database statements", () => {
  it("read the workspace id and name, set limits and plan, and core sees the change", async () => {
    const ws = await createWorkspace(t.db, { name: "Acme" }, "user:1");
    const [read] = await operator(["SELECT id, name FROM workspace WHERE name = 'Acme'"]);
    expect(read!.results!.columns).toEqual(["id", "name"]);
    expect(read!.results!.rows).toEqual([[ws.id, "Acme"]]);

    expect((await getEffectiveLimits(t.db, ws.id)).limits).toEqual(restricted);

    const limits = JSON.stringify({ ...presets.team, monitors: 77 }).replaceAll("'", "''");
    await operator([`UPDATE workspace SET limits = '${limits}' WHERE id = ${ws.id}`]);
    expect((await getEffectiveLimits(t.db, ws.id)).limits.monitors).toBe(77);

    const future = Math.floor(Date.now() / 1000) + 86_400;
    await operator([`UPDATE workspace SET plan = 'team', paid_until = ${future}, ends_at = NULL WHERE id = ${ws.id}`]);
    const after = await getWorkspace(t.db, ws.id);
    expect(after).toMatchObject({ plan: "team", paidUntil: future, endsAt: null });
    expect((await getEffectiveLimits(t.db, ws.id)).expired).toBe(false);

    await operator([`UPDATE workspace SET ends_at = ${Math.floor(Date.now() / 1000) - 1} WHERE id = ${ws.id}`]);
    const ended = await getEffectiveLimits(t.db, ws.id);
    expect(ended.expired).toBe(true);
    expect(ended.limits).toEqual(restricted);
  });

  it("bad JSON written into limits gives restricted, not a crash", async () => {
    const ws = await createWorkspace(t.db, { name: "Broken" }, "operator");
    await operator([`UPDATE workspace SET limits = '{"monitors": 10,' WHERE id = ${ws.id}`]);
    const { limits } = await getEffectiveLimits(t.db, ws.id);
    expect(limits).toEqual(restricted);
  });
});

describe("workspace operations", () => {
  it("a new workspace has no limits set, so it is restricted", async () => {
    const ws = await createWorkspace(t.db, { name: "Fresh" }, "operator");
    expect(ws.limits).toBeNull();
    expect((await getEffectiveLimits(t.db, ws.id)).limits).toEqual(restricted);
  });

  it("setting limits from a preset or a patch stores all 17 keys and writes an audit row", async () => {
    const ws = await createWorkspace(t.db, { name: "Audited" }, "operator");
    await setLimits(t.db, ws.id, "starter", "operator");
    const patched = await setLimits(t.db, ws.id, { monitors: 3, sms: false }, "user:9");
    expect(patched).toEqual({ ...presets.starter, monitors: 3, sms: false });
    const [row] = await t.db.select().from(workspace).where(eq(workspace.id, ws.id));
    expect(Object.keys(JSON.parse(row!.limits!))).toHaveLength(17);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.workspaceId, ws.id));
    expect(audit.map((a) => [a.action, a.actor])).toEqual([
      ["workspace.create", "operator"],
      ["workspace.limits.update", "operator"],
      ["workspace.limits.update", "user:9"],
    ]);
  });

  it("an invalid limits patch names the key and writes nothing", async () => {
    const ws = await createWorkspace(t.db, { name: "Strict" }, "operator");
    await expect(setLimits(t.db, ws.id, { monitors: "ten" }, "operator")).rejects.toThrow(ValidationError);
    await expect(setLimits(t.db, ws.id, { monitors: "ten" }, "operator")).rejects.toThrow(/limits: monitors/);
    await expect(setLimits(t.db, ws.id, { "not-a-key": 1 }, "operator")).rejects.toThrow(ValidationError);
    await expect(setLimits(t.db, ws.id, "gold", "operator")).rejects.toThrow(/unknown preset "gold"/);
    expect((await getWorkspace(t.db, ws.id)).limits).toBeNull();
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.workspaceId, ws.id));
    expect(audit).toHaveLength(1);
  });

  it("setting the plan updates plan, paid_until and ends_at and is audited", async () => {
    const ws = await createWorkspace(t.db, { name: "Paying" }, "operator");
    await setLimits(t.db, ws.id, "team", "operator");
    const updated = await setPlan(t.db, ws.id, { plan: "team", paidUntil: 4_000_000_000, endsAt: null }, "operator");
    expect(updated).toMatchObject({ plan: "team", paidUntil: 4_000_000_000, endsAt: null });
    await setPlan(t.db, ws.id, { plan: "team", endsAt: 1_000 }, "operator");
    expect((await getEffectiveLimits(t.db, ws.id)).limits).toEqual(restricted);
    await expect(setPlan(t.db, ws.id, { plan: "", paidUntil: 1.5 }, "operator")).rejects.toThrow(ValidationError);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.workspaceId, ws.id));
    expect(audit.filter((a) => a.action === "workspace.plan.update")).toHaveLength(2);
  });
});

describe("a workspace whose limits column is broken", () => {
  it("a bad limits JSON warns once per workspace", async () => {
    const a = await createWorkspace(t.db, { name: "Broken A" }, "operator");
    const b = await createWorkspace(t.db, { name: "Broken B" }, "operator");
    await operator([`UPDATE workspace SET limits = '{monitors: 5' WHERE id IN (${a.id}, ${b.id})`]);
    const warnings: string[] = [];
    const listen = (w: Error) => {
      if (w.name === "VigilLimits") warnings.push(w.message);
    };
    process.on("warning", listen);
    try {
      for (let i = 0; i < 5; i++) {
        expect((await getEffectiveLimits(t.db, a.id)).limits).toEqual(restricted);
        expect((await getEffectiveLimits(t.db, b.id)).limits).toEqual(restricted);
      }
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
      expect(warnings.map((w) => w.replace(/\(.*\)/, "(…)"))).toEqual([
        `workspace ${a.id}: workspace limits are not valid JSON (…); using restricted limits`,
        `workspace ${b.id}: workspace limits are not valid JSON (…); using restricted limits`,
      ]);
    } finally {
      process.off("warning", listen);
    }
  });
});
