// The operator's side in the browser (Chromium, real sqld, real mail API): who may sign up, the instance
// area lifting a restricted workspace, and every dashboard page at phone width.
import {
  createChannel,
  createMonitor,
  createPrivateLocation,
  createStatusPage,
  createStatusReport,
  listMemberships,
  setLimits,
} from "@vigil/core";
import { user } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildDashboard,
  type Dashboard,
  launchChromium,
  type Mail,
  shot,
  signInByMail,
  startDashboard,
  startMailApi,
} from "../../src/testing";

let db: TestDatabase;
let mail: Awaited<ReturnType<typeof startMailApi>>;
let dash: Dashboard;
let browser: Browser;
let admin: Page;
let adminWs: number;

const ADMIN = "ops@example.com";

beforeAll(async () => {
  [, db, mail] = await Promise.all([buildDashboard(), startTestDatabase(), startMailApi()]);
  [dash, browser] = await Promise.all([
    startDashboard({
      DATABASE_URL: db.url,
      AUTH_SECRET: "instance-admin-test-secret-0123456789",
      EMAIL_PROVIDER_API_URL: mail.url,
      EMAIL_PROVIDER_API_KEY: "re_test_key",
      EMAIL_FROM: "Vigil <signin@vigil.test>",
      LOG_LEVEL: "warn",
      VIGIL_SIGNUP: "closed",
    }),
    launchChromium(),
  ]);
  admin = await (await browser.newContext()).newPage();
  // The first person on a fresh instance is its admin.
  await signInByMail(admin, mail, dash.url, ADMIN);
  await admin.waitForURL(/\/w\/\d+/);
  adminWs = Number(/\/w\/(\d+)/.exec(admin.url())![1]);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await dash?.stop();
  await mail?.close();
  await db?.close();
});

const mailsTo = (to: string) => mail.mails.filter((m: Mail) => JSON.stringify(m).includes(to)).length;

describe("sign-up the operator controls", () => {
  it("the second person on a closed instance is refused with the reason, and no link is mailed", { timeout: 180_000 }, async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${dash.url}/signin`);
    await expect.poll(() => page.getByTestId("signup-rule").textContent()).toMatch(/Sign-up is closed/);
    await page.getByLabel("Email").fill("stranger@example.com");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    const alert = page.getByRole("alert").filter({ hasText: /Sign-up on this Vigil instance is closed/ });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/only addresses invited to a workspace and the instance's admins can sign in/);
    expect(mailsTo("stranger@example.com")).toBe(0);
    await shot(page, "signup-closed-refused");
    // The instance area is not there for a visitor.
    expect((await page.goto(`${dash.url}/instance`))?.status()).toBe(404);
    await page.context().close();
  });
});

describe("the instance area", () => {
  it("an instance admin lifts a restricted workspace to a preset and its owner creates monitors at once", {
    timeout: 400_000,
  }, async () => {
    // The admin makes a workspace for someone new: restricted to start with.
    await admin.goto(`${dash.url}/instance`);
    await admin.getByLabel("Owner's e-mail").fill("owner@example.com");
    await admin.getByLabel("Workspace name").fill("Owner Co");
    await admin.getByLabel("Limits preset").selectOption("restricted");
    await admin.getByRole("button", { name: "Create workspace" }).click();
    const link = admin.getByText(/\/invite\/vgl_inv_/).first();
    await link.waitFor();
    const invite = (await link.textContent())!.match(/https?:\/\/\S+\/invite\/vgl_inv_[\w-]+/)![0];
    const wsId = Number((await admin.getByText(/Workspace \d+ is made for owner@example.com/).textContent())!.match(/Workspace (\d+)/)![1]);

    // The invited owner may sign in on the closed instance, and joins it.
    const owner = await (await browser.newContext()).newPage();
    await signInByMail(owner, mail, dash.url, "owner@example.com", `/signin?callbackUrl=${encodeURIComponent(new URL(invite).pathname)}`);
    await owner.getByRole("button", { name: /Accept|Join/ }).click();
    await owner.waitForURL(new RegExp(`/w/${wsId}`));
    // Restricted: the monitor form says why nothing can be saved, which key, and who lifts it.
    await owner.goto(`${dash.url}/w/${wsId}/monitors/new`);
    const why = owner.getByTestId("no-locations");
    await why.waitFor();
    const text = (await why.textContent()) ?? "";
    expect(text).toMatch(/limits do not allow any yet/);
    expect(text).toMatch(/Limit key private-locations\. An instance admin lifts it \(ops@example\.com\)/);
    expect(text).toContain(`pnpm exec vigil admin limits ${wsId} --set private-locations=true`);
    expect(text).toContain(
      `UPDATE workspace SET limits = json_set(coalesce(limits, '{}'), '$.private-locations', json('true')) WHERE id = ${wsId};`,
    );
    expect(await owner.getByRole("button", { name: "Create monitor" }).isDisabled()).toBe(true);
    await shot(owner, "restricted-monitor-form");
    // The owner is no instance admin.
    expect((await owner.goto(`${dash.url}/instance/workspaces/${wsId}`))?.status()).toBe(404);

    // The admin lifts it to the team preset in the instance area.
    await admin.goto(`${dash.url}/instance/workspaces/${wsId}`);
    await admin.getByLabel("Preset").selectOption("team");
    await admin.getByRole("button", { name: "Apply preset" }).click();
    await admin.getByText("Preset applied: the new limits are in force now.").waitFor();
    await admin.reload();
    expect(await admin.getByLabel("Monitors (monitors)").inputValue()).toBe("50");
    await shot(admin, "instance-workspace");

    // At once, with no restart: a private location, then two monitors checked every minute.
    await owner.goto(`${dash.url}/w/${wsId}/locations`);
    expect(await owner.getByTestId("restricted-banner").count()).toBe(0);
    await owner.getByLabel("Name").fill("office-rack");
    await owner.getByLabel("Region").selectOption("fra");
    await owner.getByRole("button", { name: "Create location" }).click();
    await owner.getByRole("dialog").getByTestId("secret").waitFor();
    for (const name of ["checkout", "search"]) {
      await owner.goto(`${dash.url}/w/${wsId}/monitors/new`);
      await owner.getByLabel("Name", { exact: true }).fill(name);
      await owner.getByLabel("URL").fill(`https://${name}.example.com/health`);
      await owner.getByLabel("Frequency").selectOption("1m");
      await owner.getByRole("button", { name: "Create monitor" }).click();
      await owner.waitForURL(/\/monitors\?saved=\d+/);
    }
    await owner.getByText("checkout").first().waitFor();
    await shot(owner, "lifted-monitors");
    await owner.context().close();

    // Each change is in the instance's audit log.
    await admin.goto(`${dash.url}/instance/people`);
    const log = (await admin.getByText("workspace.limits.update").count()) + (await admin.getByText("workspace.create").count());
    expect(log).toBe(2);
  });
});

describe("phone width", () => {
  it("no dashboard page scrolls sideways at 390 px", { timeout: 400_000 }, async () => {
    const d = db.db;
    await setLimits(d, adminWs, "unlimited", "operator");
    const long = "a-monitor-with-a-rather-long-name-that-people-really-use-in-production";
    const loc = await createPrivateLocation(d, adminWs, { name: "edge-frankfurt-rack-number-one", region: "fra" }, "test");
    const mon = await createMonitor(
      d,
      adminWs,
      {
        key: "long",
        name: long,
        kind: "http",
        frequency: "1m",
        regions: ["fra"],
        request: { url: `https://very-long-subdomain-for-testing.example.com/api/v1/health/check?with=query&and=more` },
      },
      "test",
    );
    const channel = await createChannel(
      d,
      adminWs,
      {
        name: "on-call-webhook-for-the-platform-team",
        kind: "webhook",
        config: { url: "https://hooks.example.com/very/long/path/to/a/webhook" },
        enabled: true,
      },
      "test",
    );
    const sp = await createStatusPage(d, adminWs, { slug: "public-status", title: "Public status of every service we run" }, "test");
    const report = await createStatusReport(
      d,
      adminWs,
      { pageId: sp.id, title: "Checkout is slow for some customers in Europe", message: "Looking into it." },
      "test",
    );
    const [me] = await d.select({ id: user.id }).from(user).limit(1);
    expect((await listMemberships(d, me!.id)).length).toBeGreaterThan(0);

    const w = `/w/${adminWs}`;
    const pages = [
      w,
      `${w}/monitors`,
      `${w}/monitors/new`,
      `${w}/monitors/import`,
      `${w}/monitors/${mon.id}`,
      `${w}/monitors/${mon.id}/edit`,
      `${w}/notifications`,
      `${w}/notifications/new`,
      `${w}/notifications/${channel.id}`,
      `${w}/status-pages`,
      `${w}/status-pages/${sp.id}`,
      `${w}/status-pages/${sp.id}/components`,
      `${w}/status-pages/${sp.id}/reports`,
      `${w}/status-pages/${sp.id}/reports/${report.id}`,
      `${w}/status-pages/${sp.id}/maintenance`,
      `${w}/status-pages/${sp.id}/subscribers`,
      `${w}/locations`,
      `${w}/locations/${loc.location.id}`,
      `${w}/api-keys`,
      `${w}/members`,
      `${w}/settings`,
      `${w}/audit-log`,
      "/instance",
      "/instance/people",
      `/instance/workspaces/${adminWs}`,
    ];
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await admin.context().storageState() });
    const page = await phone.newPage();
    const wide: string[] = [];
    for (const path of pages) {
      const res = await page.goto(dash.url + path);
      expect(res?.status(), path).toBe(200);
      await page.waitForLoadState("networkidle");
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) {
        // Name the widest element so a failure says what spills.
        const culprit = await page.evaluate(() => {
          let worst = "";
          let right = 0;
          const scrolls = (el: Element | null): boolean => {
            for (let p = el?.parentElement; p; p = p.parentElement)
              if (/auto|scroll|hidden/.test(getComputedStyle(p).overflowX)) return true;
            return false;
          };
          for (const el of document.querySelectorAll("body *")) {
            if (scrolls(el)) continue;
            const r = el.getBoundingClientRect();
            if (r.right > right) {
              right = r.right;
              worst = `${el.tagName.toLowerCase()}.${(el.getAttribute("class") ?? "").split(" ").slice(0, 4).join(".")}`;
            }
          }
          return `${worst} (${Math.round(right)} px)`;
        });
        wide.push(`${path}: ${width} px, ${culprit}`);
      }
    }
    await page.goto(`${dash.url}${w}/monitors`);
    await shot(page, "phone-monitors");
    await page.goto(`${dash.url}/instance`);
    await shot(page, "phone-instance");
    await phone.close();
    expect(wide).toEqual([]);
  });
});
