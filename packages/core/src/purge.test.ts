// What only piles up (sign-in links, sessions, subscribers who never confirmed) is purged by age on real sqld.
import { pageSubscriber, session, user, verificationToken } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, setLimits } from "./access";
import { forgetSignInLinks, purgeExpired } from "./purge";
import { CONFIRM_RESEND_MS } from "./rate-limits";
import { confirmSubscription, createStatusPage, subscribe, unsubscribe } from "./status";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(() => t?.close());

const HOUR = 3_600_000;

describe("purge", () => {
  it("expired verification tokens, sessions and stale subscribers are purged; fresh ones stay", async () => {
    const now = Date.now();
    await t.db.insert(user).values({ id: "u1", email: "ada@example.com" });
    await t.db.insert(verificationToken).values([
      { identifier: "old@example.com", token: "h1", expires: new Date(now - 1) },
      { identifier: "new@example.com", token: "h2", expires: new Date(now + 15 * 60_000) },
    ]);
    await t.db.insert(session).values([
      { sessionToken: "s-old", userId: "u1", expires: new Date(now - HOUR) },
      { sessionToken: "s-new", userId: "u1", expires: new Date(now + 30 * 24 * HOUR) },
    ]);
    const ws = (await createWorkspace(t.db, { name: "Purge" }, "operator")).id;
    await setLimits(t.db, ws, "unlimited", "operator");
    const page = await createStatusPage(t.db, ws, { slug: "purge", title: "Purge" }, "u");
    const stale = await subscribe(t.db, page.id, { email: "stale@example.com" }, now - 49 * HOUR);
    await subscribe(t.db, page.id, { email: "fresh@example.com" }, now - 47 * HOUR);
    const confirmed = await subscribe(t.db, page.id, { email: "confirmed@example.com" }, now - 100 * HOUR);
    await confirmSubscription(t.db, confirmed.confirmToken!, now - 99 * HOUR);
    const left = await subscribe(t.db, page.id, { email: "left@example.com" }, now - 100 * HOUR);
    await confirmSubscription(t.db, left.confirmToken!, now - 99 * HOUR);
    const [leftRow] = (await t.db.select().from(pageSubscriber)).filter((r) => r.email === "left@example.com");
    await unsubscribe(t.db, leftRow!.unsubscribeToken!, now - 98 * HOUR);

    expect(await purgeExpired(t.db, now)).toEqual({ verificationTokens: 1, sessions: 1, subscribers: 1 });
    expect((await t.db.select().from(verificationToken)).map((r) => r.identifier)).toEqual(["new@example.com"]);
    expect((await t.db.select().from(session)).map((r) => r.sessionToken)).toEqual(["s-new"]);
    const emails = (await t.db.select().from(pageSubscriber)).map((r) => r.email).sort();
    expect(emails).toEqual(["confirmed@example.com", "fresh@example.com", "left@example.com"]);
    expect(emails).not.toContain(stale.email);
    // A second run finds nothing more.
    expect(await purgeExpired(t.db, now)).toEqual({ verificationTokens: 0, sessions: 0, subscribers: 0 });

    await forgetSignInLinks(t.db, "new@example.com");
    expect(await t.db.select().from(verificationToken)).toEqual([]);
  });

  it("subscribing again while a link is pending mails nothing new until 15 minutes have passed", async () => {
    const ws = (await createWorkspace(t.db, { name: "Resend" }, "operator")).id;
    await setLimits(t.db, ws, "unlimited", "operator");
    const page = await createStatusPage(t.db, ws, { slug: "resend", title: "Resend" }, "u");
    const now = Date.now();
    const first = await subscribe(t.db, page.id, { email: "x@example.com" }, now);
    expect(first.confirmToken).not.toBeNull();
    expect((await subscribe(t.db, page.id, { email: "x@example.com" }, now + 60_000)).confirmToken).toBeNull();
    // Two at once after the wait: one of them gets the new link.
    const later = now + CONFIRM_RESEND_MS + 1;
    const both = await Promise.all([0, 1].map(() => subscribe(t.db, page.id, { email: "x@example.com" }, later)));
    const fresh = both.filter((s) => s.confirmToken !== null);
    expect(fresh).toHaveLength(1);
    // The new link replaced the old one.
    expect((await confirmSubscription(t.db, first.confirmToken!, later)).outcome).toBe("invalid");
    expect((await confirmSubscription(t.db, fresh[0]!.confirmToken!, later)).outcome).toBe("confirmed");
  });
});
