import { acceptInvitation, confirmTotpEnrolment, inviteMember, setLimits, startTotpEnrolment } from "@vigil/core";
import { user } from "@vigil/db-schema";
import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { mailDashboardFixture, shot, signInByMail } from "../../src/testing";

const stack = mailDashboardFixture();

const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: ms });

async function freshPage(): Promise<Page> {
  return (await stack.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
}

/** An e-mail sign-in that stops at the code page. */
async function signInToCode(email: string): Promise<Page> {
  const page = await freshPage();
  await signInByMail(page, stack.mail, stack.dash.url, email);
  await page.waitForURL(/\/signin\/code/);
  return page;
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Continue" }).click();
}

describe("second factor (authenticator app)", () => {
  it("set up with a QR code; then sign-in asks for the code, recovery codes work once, and wrong codes are rate-limited", {
    timeout: 300_000,
  }, async () => {
    const { page: first, ws } = await stack.signIn("tess@totp.test");

    // Enrolment: the account page (reached from the workspace menu) shows a QR code and the key.
    await first
      .getByRole("button", { name: /tess|workspace/i })
      .first()
      .click();
    await first.getByRole("menuitem", { name: "Account and second factor" }).click();
    await first.waitForURL(/\/account$/);
    await first.getByRole("button", { name: "Set up an authenticator app" }).click();
    const secret = (await first.getByTestId("totp-secret").textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expect(
      first
        .getByRole("img", { name: /QR code/ })
        .locator("svg")
        .count(),
    ).resolves.toBe(1);
    expect(await first.getByTestId("totp-uri").textContent()).toContain(`secret=${secret}`);
    await first.getByLabel("Code from the app").fill("000000");
    await first.getByRole("button", { name: "Confirm" }).click();
    await first.getByText("is not the current 6-digit code").first().waitFor();
    await shot(first, "totp-enrol");
    await first.getByLabel("Code from the app").fill(codeAt(secret, Date.now()));
    await first.getByRole("button", { name: "Confirm" }).click();
    await first.getByTestId("recovery-codes").waitFor();
    const recovery = (await first.getByTestId("recovery-codes").locator("li").allTextContents()).map((c) => c.trim());
    expect(recovery).toHaveLength(10);
    await shot(first, "totp-recovery-codes");
    // The secret rests encrypted: the database never holds the key the page showed.
    const stored = await stack.db.db.$client.execute("SELECT secret FROM user_totp");
    expect(String(stored.rows[0]!.secret)).not.toContain(secret);

    // A new sign-in stops at the code page; the workspace is out of reach until a code is given.
    const second = await signInToCode("tess@totp.test");
    await shot(second, "totp-code-page");
    await second.goto(`${stack.dash.url}/w/${ws}/monitors`);
    await second.waitForURL(/\/signin\/code/);
    await enterCode(second, "123456");
    await second
      .getByText(/is not the current code/)
      .first()
      .waitFor();
    // The next 30-second code (the one just used at enrolment is spent).
    await enterCode(second, codeAt(secret, Date.now() + 30_000));
    await second.waitForURL(new RegExp(`/w/${ws}$`));

    // A recovery code signs in once.
    const third = await signInToCode("tess@totp.test");
    await enterCode(third, recovery[0]!);
    await third.waitForURL(/\/w\/\d+/);
    const fourth = await signInToCode("tess@totp.test");
    await enterCode(fourth, recovery[0]!);
    await fourth
      .getByText(/neither a 6-digit code nor an unused recovery code/)
      .first()
      .waitFor();
    expect(fourth.url()).toContain("/signin/code");

    // Guessing is rate-limited per account: after the share, even a right code waits.
    let refused = "";
    for (let i = 0; i < 12 && !refused; i++) {
      await enterCode(fourth, String(100000 + i));
      await fourth.getByRole("alert").first().waitFor();
      const text = (await fourth.getByRole("alert").allTextContents()).join(" ");
      if (/Too many second-factor codes/.test(text)) refused = text;
    }
    expect(refused).toMatch(/Too many second-factor codes for this account; try again in \d+ s/);
    await enterCode(fourth, codeAt(secret, Date.now() + 60_000));
    await fourth
      .getByText(/Too many second-factor codes/)
      .first()
      .first()
      .waitFor();
    expect(fourth.url()).toContain("/signin/code");
    await shot(fourth, "totp-rate-limited");
  });

  it("an owner requires a second factor: a member without one is sent to set it up before using the workspace", {
    timeout: 300_000,
  }, async () => {
    const { page: owner, ws } = await stack.signIn("olga@totp.test");
    await setLimits(stack.db.db, ws, "unlimited", "operator");
    const { rows } = await stack.db.db.$client.execute("SELECT id FROM user WHERE email = 'olga@totp.test'");
    await stack.db.db.insert(user).values({ id: "totp-member", email: "max@totp.test" });
    const { token } = await inviteMember(stack.db.db, ws, { email: "max@totp.test", role: "member" }, `user:${rows[0]!.id}`);
    await acceptInvitation(stack.db.db, token, { id: "totp-member", email: "max@totp.test" });

    // The owner must have a second factor before requiring one.
    await owner.goto(`${stack.dash.url}/w/${ws}/settings`);
    const rule = owner.locator("form", { has: owner.getByLabel(/Members must sign in/) });
    await owner.getByLabel(/Members must sign in with an authenticator app/).check();
    await rule.getByRole("button", { name: "Save" }).click();
    await owner.getByText("Set up your own authenticator app first").waitFor();
    const { secret: ownerSecret } = await startTotpEnrolment(stack.db.db, { id: String(rows[0]!.id), email: "olga@totp.test" });
    await confirmTotpEnrolment(stack.db.db, String(rows[0]!.id), codeAt(ownerSecret, Date.now()));
    // Her open session now owes a code.
    await owner.goto(`${stack.dash.url}/w/${ws}/settings`);
    expect(owner.url()).toContain("/signin/code");
    await enterCode(owner, codeAt(ownerSecret, Date.now() + 30_000));
    await owner.waitForURL(new RegExp(`/w/${ws}$`));
    await owner.goto(`${stack.dash.url}/w/${ws}/settings`);
    await owner.getByLabel(/Members must sign in with an authenticator app/).check();
    await rule.getByRole("button", { name: "Save" }).click();
    await owner.getByText("Saved.").waitFor();
    const audit = await stack.db.db.$client.execute({ sql: "SELECT action FROM audit_log WHERE workspace_id = ?", args: [ws] });
    expect(audit.rows.map((r) => r.action)).toContain("workspace.second-factor-required");

    const member = await freshPage();
    await signInByMail(member, stack.mail, stack.dash.url, "max@totp.test");
    await member.goto(`${stack.dash.url}/w/${ws}/monitors`);
    await member.waitForURL(new RegExp(`/account\\?required=${ws}`));
    await member.getByTestId("second-factor-required").waitFor();
    await shot(member, "totp-required-by-workspace");
    // Downloads keep the rule too: nothing of the workspace leaves before the second factor is set up.
    for (const path of ["monitors/export", "monitors/1/sla/export?format=csv"]) {
      const res = await member.request.get(`${stack.dash.url}/w/${ws}/${path}`, { maxRedirects: 0 });
      expect([path, res.status(), await res.text()]).toEqual([
        path,
        403,
        "This workspace asks for a second factor: set one up under Account, then try again.\n",
      ]);
    }
    // Set up, the member gets in.
    await member.getByRole("button", { name: "Set up an authenticator app" }).click();
    const secret = (await member.getByTestId("totp-secret").textContent())!.trim();
    await member.getByLabel("Code from the app").fill(codeAt(secret, Date.now()));
    await member.getByRole("button", { name: "Confirm" }).click();
    await member.getByTestId("recovery-codes").waitFor();
    await member.goto(`${stack.dash.url}/w/${ws}/monitors`);
    await member.waitForURL(new RegExp(`/w/${ws}/monitors`));
  });
});
