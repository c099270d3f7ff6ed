// Issue 27's finding "confirm links are one-click GETs that mail scanners trigger", replayed against the status
// page's own confirm handler on real sqld, judged by the subscriber row itself rather than by what a page says.
import { createStatusPage, subscribe, subscriptionLink } from "@vigil/core";
import { unlimitedWorkspace, useTestDatabase } from "@vigil/core/testing";
import { pageSubscriber } from "@vigil/db-schema";
import type { TestDatabase } from "@vigil/db-schema/testing";
import { beforeAll, describe, expect, it } from "vitest";

let t: TestDatabase;
useTestDatabase((started) => {
  t = started;
});

/** The "Confirm subscription" and "Unsubscribe" buttons' POST handlers, as the status page serves them. */
let pressConfirm: (token: string) => Promise<Response>;
let pressUnsubscribe: (token: string) => Promise<Response>;
let pageId: number;

beforeAll(async () => {
  // The handler reads its database from the environment on first use, as the status page process does.
  Object.assign(process.env, t.env, { AUTH_SECRET: "a-test-secret-of-at-least-16-chars" });
  const confirm = await import("../../apps/status-page/app/confirm/submit/route");
  const leave = await import("../../apps/status-page/app/unsubscribe/submit/route");
  const press = (post: (req: Request) => Promise<Response>, path: string) => (token: string) => {
    const form = new FormData();
    form.set("token", token);
    return post(new Request(`http://127.0.0.1${path}?lang=en`, { method: "POST", body: form }));
  };
  pressConfirm = press(confirm.POST, "/confirm/submit");
  pressUnsubscribe = press(leave.POST, "/unsubscribe/submit");
  const ws = await unlimitedWorkspace(t.db);
  pageId = (await createStatusPage(t.db, ws, { slug: "scanned", title: "Scanned Co" }, "u")).id;
});

const row = async (email: string) => {
  const rows = await t.db.select().from(pageSubscriber);
  return rows.find((r) => r.email === email)!;
};

const HOUR = 3_600_000;

describe("a subscription is confirmed only by the mailed token, pressed on purpose, once", () => {
  it("a mail scanner opening the confirm link leaves the subscriber unconfirmed; the button's POST confirms it once", async () => {
    const { confirmToken } = await subscribe(t.db, pageId, { email: "reader@example.com" });
    // What a GET of the link runs (the confirm page), twice, as scanners and link previews do.
    for (let i = 0; i < 2; i++) expect((await subscriptionLink(t.db, "confirm", confirmToken!)).state).toBe("pending");
    expect((await row("reader@example.com")).confirmedAt).toBeNull();

    const res = await pressConfirm(confirmToken!);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/confirm?token=${encodeURIComponent(confirmToken!)}&lang=en`);
    const confirmedAt = (await row("reader@example.com")).confirmedAt;
    expect(confirmedAt).toBeTypeOf("number");

    // Pressed again later: the row keeps its first confirmation.
    await new Promise((r) => setTimeout(r, 5));
    await pressConfirm(confirmToken!);
    expect((await row("reader@example.com")).confirmedAt).toBe(confirmedAt);
  });

  it("a forged POST (no token, a guessed one, the stored hash, the unsubscribe token) confirms nobody", async () => {
    const { confirmToken } = await subscribe(t.db, pageId, { email: "victim@example.com" });
    const stored = await row("victim@example.com");
    expect(stored.tokenHash, "the database keeps only a hash of the mailed token").not.toBe(confirmToken);
    for (const forged of ["", "x".repeat(32), `${confirmToken}x`, stored.tokenHash!, stored.unsubscribeToken!, "a".repeat(5000)]) {
      const res = await pressConfirm(forged);
      expect(res.status, forged.slice(0, 20)).toBe(303);
      expect((await row("victim@example.com")).confirmedAt, forged.slice(0, 20)).toBeNull();
    }
  });

  it("one subscriber's token never confirms another's address", async () => {
    const mine = await subscribe(t.db, pageId, { email: "attacker@example.com" });
    await subscribe(t.db, pageId, { email: "bystander@example.com" });
    await pressConfirm(mine.confirmToken!);
    expect((await row("attacker@example.com")).confirmedAt).toBeTypeOf("number");
    expect((await row("bystander@example.com")).confirmedAt).toBeNull();
  });

  it("a link older than 48 hours, or replaced by a newer one, confirms nothing", async () => {
    const old = await subscribe(t.db, pageId, { email: "late@example.com" }, Date.now() - 49 * HOUR);
    await pressConfirm(old.confirmToken!);
    expect((await row("late@example.com")).confirmedAt).toBeNull();

    const first = await subscribe(t.db, pageId, { email: "twice@example.com" }, Date.now() - HOUR);
    const second = await subscribe(t.db, pageId, { email: "twice@example.com" });
    expect(second.confirmToken).toBeTruthy();
    await pressConfirm(first.confirmToken!);
    expect((await row("twice@example.com")).confirmedAt).toBeNull();
    await pressConfirm(second.confirmToken!);
    expect((await row("twice@example.com")).confirmedAt).toBeTypeOf("number");
  });
});

describe("an unsubscribe link acts only on a button press with its own token", () => {
  it("a scanner opening the unsubscribe link keeps the mail coming; a forged POST changes nothing; the button unsubscribes", async () => {
    const { confirmToken } = await subscribe(t.db, pageId, { email: "stays@example.com" });
    await pressConfirm(confirmToken!);
    const { unsubscribeToken } = await row("stays@example.com");
    for (let i = 0; i < 2; i++) expect((await subscriptionLink(t.db, "unsubscribe", unsubscribeToken!)).state).toBe("subscribed");
    for (const forged of ["", confirmToken!, `${unsubscribeToken}x`]) await pressUnsubscribe(forged);
    expect((await row("stays@example.com")).unsubscribedAt).toBeNull();

    expect((await pressUnsubscribe(unsubscribeToken!)).status).toBe(303);
    expect((await row("stays@example.com")).unsubscribedAt).toBeTypeOf("number");
  });
});
