import { auditLog, type Db, instanceAudit, session, workspace } from "@vigil/db-schema";
import { presets } from "@vigil/limits";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bootstrapUser, getWorkspace, inviteMember, setLimits } from "../access";
import { ValidationError } from "../errors";
import { insertUser, useTestDatabase } from "../testing";
import {
  adminSetLimits,
  adminSetPlan,
  createAdminToken,
  createWorkspaceFor,
  type InstanceRules,
  inviteToInstance,
  isInstanceAdmin,
  listInstanceWorkspaces,
  newWorkspacePolicy,
  revokeAdminToken,
  setUserDisabled,
  signInRefusal,
  verifyAdminToken,
} from "./index";

let db: Db;
useTestDatabase((t) => {
  db = t.db;
});

const closed: InstanceRules = { adminEmails: ["ops@example.com"], signupLimits: "restricted" };
const newUser = (email: string) => insertUser(db, email);

describe("sign-up rules", () => {
  it("a new instance lets its first person in, then is closed to strangers (with the reason)", async () => {
    expect(await signInRefusal(db, "first@example.com", closed)).toBeNull();
    const first = await newUser("first@example.com");
    expect(await isInstanceAdmin(db, first, closed)).toBe(true);
    const refusal = await signInRefusal(db, "stranger@example.com", closed);
    expect(refusal?.code).toBe("closed");
    expect(refusal?.message).toMatch(/closed: only addresses invited/);
    // Known people, configured admins and invited addresses still sign in.
    expect(await signInRefusal(db, "FIRST@example.com", closed)).toBeNull();
    expect(await signInRefusal(db, "ops@example.com", closed)).toBeNull();
    const [ws] = await bootstrapUser(db, first);
    await setLimits(db, ws!.workspace.id, "team", "operator");
    await inviteMember(db, ws!.workspace.id, { email: "invited@example.com" }, "operator");
    expect(await signInRefusal(db, "invited@example.com", closed)).toBeNull();
    // A closed instance makes no workspace for someone who only joins one.
    expect(await newWorkspacePolicy(db, await newUser("invited@example.com"), closed)).toBeNull();
  });

  it("invite mode lets in addresses an instance admin invited, with the preset chosen for their workspace", async () => {
    const rules: InstanceRules = { ...closed, signup: "invite" };
    expect((await signInRefusal(db, "guest@example.com", rules))?.code).toBe("invite");
    await inviteToInstance(db, { email: "Guest@Example.com", preset: "team" }, "operator");
    expect(await signInRefusal(db, "guest@example.com", rules)).toBeNull();
    const guest = await newUser("guest@example.com");
    expect(await newWorkspacePolicy(db, guest, rules)).toEqual({ limits: JSON.stringify(presets.team), invitation: "guest@example.com" });
  });

  it("open sign-up gives new workspaces the VIGIL_SIGNUP_LIMITS preset", async () => {
    const rules: InstanceRules = { ...closed, signup: "open", signupLimits: "free" };
    expect(await signInRefusal(db, "anyone@example.com", rules)).toBeNull();
    const list = await bootstrapUser(db, await newUser("anyone@example.com"), {
      newWorkspace: await newWorkspacePolicy(db, { id: "none", email: "anyone@example.com" }, rules),
    });
    expect(JSON.parse(list[0]!.workspace.limits!)).toEqual(presets.free);
  });

  it("a disabled user is refused even on an open instance, and their sessions end at once", async () => {
    const u = await newUser("leaver@example.com");
    await db.insert(session).values({ sessionToken: "hash-1", userId: u.id, expires: new Date(Date.now() + 60_000) });
    await setUserDisabled(db, u.id, true, "instance-admin:u-1");
    expect((await signInRefusal(db, u.email, { ...closed, signup: "open" }))?.code).toBe("disabled");
    expect(await db.select().from(session).where(eq(session.userId, u.id))).toEqual([]);
    const logged = await db.select().from(instanceAudit).where(eq(instanceAudit.targetId, u.id));
    expect(logged.map((e) => e.action)).toEqual(["user.disable"]);
    await expect(setUserDisabled(db, "u-1", true, "instance-admin:u-1")).rejects.toThrow(/cannot disable yourself/);
  });
});

describe("instance admin changes", () => {
  it("a preset with keys over it lifts a restricted workspace, audited in both logs", async () => {
    const made = await createWorkspaceFor(db, { email: "new-owner@example.com" }, "instance-admin:u-1");
    expect(made.invitationToken).toMatch(/^vgl_inv_/);
    const before = (await listInstanceWorkspaces(db)).find((w) => w.id === made.workspace.id)!;
    expect(before.state).toBe("restricted");
    const limits = await adminSetLimits(
      db,
      made.workspace.id,
      { preset: "team", set: { monitors: "1,000,000", periodicity: "1m,5m" } },
      "admin-token:1",
    );
    expect(limits.monitors).toBe(1_000_000);
    expect(limits.periodicity).toEqual(["1m", "5m"]);
    expect(limits["private-locations"]).toBe(true);
    const after = (await listInstanceWorkspaces(db)).find((w) => w.id === made.workspace.id)!;
    expect(after.state).toBe("active");
    const wsLog = await db.select().from(auditLog).where(eq(auditLog.workspaceId, made.workspace.id));
    expect(wsLog.map((e) => e.action)).toContain("workspace.limits.update");
  });

  it("a limit of the wrong type is refused by its key and nothing is written", async () => {
    const ws = (await listInstanceWorkspaces(db))[0]!;
    const err = await adminSetLimits(db, ws.id, { set: { monitors: "lots" } }, "admin-token:1").catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]!.path).toBe("monitors");
    expect((await getWorkspace(db, ws.id)).limits).toBe(ws.storedLimits);
  });

  it("limits written by SQL show in the instance overview at once", async () => {
    const ws = (await listInstanceWorkspaces(db))[0]!;
    await db
      .update(workspace)
      .set({ limits: JSON.stringify({ monitors: 7 }) })
      .where(eq(workspace.id, ws.id));
    expect((await listInstanceWorkspaces(db)).find((w) => w.id === ws.id)!.limits.monitors).toBe(7);
  });

  it("a plan takes dates; one in the past restricts the workspace", async () => {
    const ws = (await listInstanceWorkspaces(db))[0]!;
    await adminSetPlan(db, ws.id, { plan: "team", paidUntil: "2020-01-01", endsAt: "" }, "admin-token:1");
    const w = (await listInstanceWorkspaces(db)).find((x) => x.id === ws.id)!;
    expect(w).toMatchObject({ plan: "team", paidUntil: Date.UTC(2020, 0, 1) / 1000, endsAt: null, state: "ended" });
    await expect(adminSetPlan(db, ws.id, { plan: "team", endsAt: "soon" }, "admin-token:1")).rejects.toThrow(/endsAt must be a date/);
  });

  it("an instance-admin token works until revoked", async () => {
    const tok = await createAdminToken(db, { name: "ops" }, "operator");
    expect(await verifyAdminToken(db, tok.token)).toMatchObject({ id: tok.id });
    expect(await verifyAdminToken(db, `${tok.token}x`)).toBeNull();
    await revokeAdminToken(db, tok.id, "operator");
    expect(await verifyAdminToken(db, tok.token)).toBeNull();
  });
});
