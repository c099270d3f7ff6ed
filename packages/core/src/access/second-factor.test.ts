import { type Db, session, user, userTotp } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { eq, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchAuditLog } from "../audit";
import { ConflictError, ValidationError } from "../errors";
import { DomainRules, joinByDomainRule } from "./domain-join";
import { listMemberships } from "./members";
import {
  checkSecondFactor,
  confirmTotpEnrolment,
  passSessionSecondFactor,
  secondFactorStatus,
  sessionPassedSecondFactor,
  setWorkspaceSecondFactor,
  startTotpEnrolment,
} from "./second-factor";
import { createWorkspace, setLimits } from "./workspace";

let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await startTestDatabase();
  db = t.db;
});
afterAll(async () => t?.close());

let n = 0;
async function person(email = `p${++n}@example.com`) {
  const id = `tf-${++n}`;
  await db.insert(user).values({ id, email });
  return { id, email };
}

const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: ms });

describe("authenticator app (TOTP)", () => {
  it("enrols only with a correct code, keeps the secret encrypted at rest, and hands out ten single-use recovery codes", async () => {
    const u = await person();
    const { secret, uri } = await startTotpEnrolment(db, u);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Vigil:/);
    expect(uri).toContain(`secret=${secret}`);
    const [raw] = await db.all<{ secret: string }>(sql`SELECT secret FROM user_totp WHERE user_id = ${u.id}`);
    expect(raw!.secret).not.toContain(secret);

    const now = Date.now();
    await expect(confirmTotpEnrolment(db, u.id, "000000", now)).rejects.toThrow(ValidationError);
    expect((await secondFactorStatus(db, u.id)).enrolled).toBe(false);
    const codes = await confirmTotpEnrolment(db, u.id, codeAt(secret, now), now);
    expect(codes).toHaveLength(10);
    expect(await secondFactorStatus(db, u.id)).toEqual({ enrolled: true, recoveryCodesLeft: 10 });
    const [stored] = await db.select().from(userTotp).where(eq(userTotp.userId, u.id));
    expect(stored!.recoveryCodes.join()).not.toContain(codes[0]!.replace("-", ""));

    // A code works once; the next 30-second code works.
    await expect(checkSecondFactor(db, u.id, codeAt(secret, now), now)).rejects.toThrow(/already used/);
    expect(await checkSecondFactor(db, u.id, codeAt(secret, now + 30_000), now + 30_000)).toBe("totp");
    await expect(checkSecondFactor(db, u.id, "123", now)).rejects.toThrow(/neither a 6-digit code nor an unused recovery code/);

    // A recovery code, typed loosely, works once.
    expect(await checkSecondFactor(db, u.id, ` ${codes[3]!.toUpperCase()} `)).toBe("recovery");
    await expect(checkSecondFactor(db, u.id, codes[3]!)).rejects.toThrow(ValidationError);
    expect((await secondFactorStatus(db, u.id)).recoveryCodesLeft).toBe(9);
    await expect(startTotpEnrolment(db, u)).rejects.toThrow(ConflictError);
  });

  it("a session passes the second factor only when marked", async () => {
    const u = await person();
    await db.insert(session).values({ sessionToken: "hash-1", userId: u.id, expires: new Date(Date.now() + 60_000) });
    expect(await sessionPassedSecondFactor(db, "hash-1")).toBe(false);
    await passSessionSecondFactor(db, "hash-1");
    expect(await sessionPassedSecondFactor(db, "hash-1")).toBe(true);
  });

  it("an owner requiring a second factor is in the audit log", async () => {
    const ws = await createWorkspace(db, { name: "Strict" }, "operator");
    await setWorkspaceSecondFactor(db, ws.id, true, "user:owner");
    const log = await searchAuditLog(db, ws.id, {});
    expect(log.entries.map((e) => e.action)).toContain("workspace.second-factor-required");
  });
});

describe("sign-in domain rules", () => {
  it("parses rules and names the format when one is wrong", () => {
    expect(DomainRules.parse("Example.com=3:viewer, corp.example=4:member")).toEqual([
      { domain: "example.com", workspaceId: 3, role: "viewer" },
      { domain: "corp.example", workspaceId: 4, role: "member" },
    ]);
    expect(DomainRules.parse("")).toEqual([]);
    expect(() => DomainRules.parse("example.com=3:owner")).toThrow(/domain=<workspaceId>:viewer\|member/);
  });

  it("places a person of the domain in the workspace once, as the rule's role; other domains and full workspaces stay out", async () => {
    const ws = await createWorkspace(db, { name: "Acme" }, "operator");
    await setLimits(db, ws.id, "unlimited", "operator");
    const rules = DomainRules.parse(`acme.test=${ws.id}:viewer`);
    const ana = await person("ana@ACME.test");
    expect((await joinByDomainRule(db, rules, ana)).joined).toBe(true);
    expect((await joinByDomainRule(db, rules, ana)).joined).toBe(false);
    expect((await listMemberships(db, ana.id)).map((m) => [m.workspace.id, m.role])).toEqual([[ws.id, "viewer"]]);
    const log = await searchAuditLog(db, ws.id, {});
    expect(log.entries.find((e) => e.action === "member.join")?.metadata).toMatchObject({ role: "viewer" });

    const eve = await person("eve@evil.test");
    expect((await joinByDomainRule(db, rules, eve)).joined).toBe(false);
    expect(await listMemberships(db, eve.id)).toEqual([]);

    await setLimits(db, ws.id, { members: 1 }, "operator");
    const bo = await person("bo@acme.test");
    const full = await joinByDomainRule(db, rules, bo);
    expect(full.joined).toBe(false);
    expect(full.reason).toMatch(/members/);
  });
});
