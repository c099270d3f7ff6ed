import {
  acceptInvitation,
  createApiKey,
  createChannel,
  createComponent,
  createComponentGroup,
  createMonitor,
  createPrivateLocation,
  createStatusPage,
  createStatusReport,
  heartbeatDetails,
  inviteMember,
  rotatePingKey,
  setLimits,
} from "@vigil/core";
import { user } from "@vigil/db-schema";
import type { BrowserContext } from "playwright-core";
import { describe, expect, it } from "vitest";
import { mailDashboardFixture, callAction as postAction, serverActions, shot } from "../../src/testing";

const stack = mailDashboardFixture();

const callAction = (ctx: BrowserContext, action: { id: string; page: string }, path: string, fields: Record<string, string>) =>
  postAction(stack.dash.url, ctx, action, path, fields);

/** Every table a change could touch, as text: equal before and after means nothing was written. */
async function snapshot(): Promise<string> {
  const tables = [
    "workspace",
    "workspace_member",
    "invitation",
    "api_key",
    "private_location",
    "monitor",
    "notification_channel",
    "monitor_channel",
    "status_page",
    "status_page_group",
    "status_page_component",
    "status_report",
    "status_report_update",
    "maintenance",
    "page_subscriber",
    "audit_log",
    "user_totp",
    "escalation_policy",
    "alert_ack",
    "monitor_dependency",
  ];
  const out: string[] = [];
  for (const t of tables) {
    const { rows } = await stack.db.db.$client.execute(`SELECT * FROM ${t} ORDER BY rowid`);
    out.push(`${t}: ${JSON.stringify(rows)}`);
  }
  return out.join("\n");
}

/** Sign-in, invitations and the account's own second factor act for the person, not on a workspace. */
const PERSONAL = new Set([
  "signInWithEmail",
  "signInWithProvider",
  "signOutAction",
  "acceptInviteAction",
  "verifySecondFactorAction",
  "startTotpAction",
  "confirmTotpAction",
  "removeTotpAction",
]);

describe("the viewer role", () => {
  it("a viewer reads every page of the workspace, sees no controls to change it, and every server action is refused on the server", {
    timeout: 300_000,
  }, async () => {
    const owner = await stack.signIn("owner@viewer.test");
    const ws = Number(/\/w\/(\d+)/.exec(owner.page.url())![1]);
    await setLimits(stack.db.db, ws, "unlimited", "operator");
    const [{ rows: ownerRows }] = [await stack.db.db.$client.execute("SELECT id FROM user WHERE email = 'owner@viewer.test'")];
    const ownerId = String(ownerRows[0]!.id);
    const actor = `user:${ownerId}`;
    // Something of everything, for the viewer to read and to try to change.
    const mon = await createMonitor(
      stack.db.db,
      ws,
      { kind: "http", key: "api", name: "Checkout API", frequency: "1m", regions: ["fra"], request: { url: "https://example.com/health" } },
      actor,
    );
    const channel = await createChannel(
      stack.db.db,
      ws,
      { name: "ops hook", kind: "webhook", config: { url: "https://hooks.example.com/x" } },
      actor,
    );
    const page = await createStatusPage(stack.db.db, ws, { slug: "viewer-acme", title: "Acme status" }, actor);
    const group = await createComponentGroup(stack.db.db, ws, page.id, { name: "Core" }, actor);
    const component = await createComponent(stack.db.db, ws, page.id, { name: "API", groupId: group.id }, actor);
    const report = await createStatusReport(
      stack.db.db,
      ws,
      { pageId: page.id, title: "Slow checkout", message: "Looking into it" },
      actor,
    );
    const { location } = await createPrivateLocation(stack.db.db, ws, { name: "rack-1", region: "fra" }, actor);
    const key = await createApiKey(stack.db.db, ws, { name: "ci" }, actor);
    await inviteMember(stack.db.db, ws, { email: "later@viewer.test", role: "member" }, actor);

    // The viewer is invited as such.
    await stack.db.db.insert(user).values({ id: "viewer-1", email: "vera@viewer.test" });
    const { token } = await inviteMember(stack.db.db, ws, { email: "vera@viewer.test", role: "viewer" }, actor);
    await acceptInvitation(stack.db.db, token, { id: "viewer-1", email: "vera@viewer.test" });
    const viewer = await stack.signIn("vera@viewer.test");
    const v = viewer.page;
    expect(v.url()).toContain(`/w/${ws}`);

    // Reads everything, with a banner saying what a viewer is and no controls to change anything.
    await v.goto(`${stack.dash.url}/w/${ws}/monitors`);
    await expect(v.getByTestId("viewer-banner").textContent()).resolves.toContain("viewer");
    await expect(v.getByText("Checkout API").first().isVisible()).resolves.toBe(true);
    expect(await v.getByRole("link", { name: "New monitor" }).count()).toBe(0);
    await shot(v, "viewer-monitors");
    await v.goto(`${stack.dash.url}/w/${ws}/monitors/${mon.id}`);
    await expect(v.getByRole("heading", { name: "Checkout API" }).isVisible()).resolves.toBe(true);
    expect(await v.getByRole("link", { name: "Edit" }).count()).toBe(0);
    expect(await v.getByRole("button", { name: /Pause|Run now|Delete/ }).count()).toBe(0);
    await shot(v, "viewer-monitor-detail");
    // A heartbeat is read, never pinged: its URL and the workspace ping key appear nowhere in what a viewer gets.
    const hb = await createMonitor(
      stack.db.db,
      ws,
      { kind: "heartbeat", key: "backup", name: "Backup job", request: { period: "1h" } },
      actor,
    );
    const hbToken = new URL((await heartbeatDetails(stack.db.db, ws, hb.id)).pingUrl).pathname.split("/")[2]!;
    const pingKey = await rotatePingKey(stack.db.db, ws, actor);
    const hbPage = await v.goto(`${stack.dash.url}/w/${ws}/monitors/${hb.id}`);
    const hbHtml = await hbPage!.text();
    await expect(v.getByText("Hidden from viewers: a ping can raise or silence this heartbeat's alert.").isVisible()).resolves.toBe(true);
    const settings = await (await v.goto(`${stack.dash.url}/w/${ws}/settings`))!.text();
    for (const secret of [hbToken, pingKey]) expect(hbHtml + settings).not.toContain(secret);
    await v.goto(`${stack.dash.url}/w/${ws}/notifications`);
    await expect(v.getByText("ops hook").first().isVisible()).resolves.toBe(true);
    expect(await v.getByRole("link", { name: "New channel" }).count()).toBe(0);
    await v.goto(`${stack.dash.url}/w/${ws}/status-pages`);
    await expect(v.getByText("Acme status").first().isVisible()).resolves.toBe(true);
    expect(await v.getByText("New status page").count()).toBe(0);
    await v.goto(`${stack.dash.url}/w/${ws}/members`);
    await expect(v.getByText("vera@viewer.test").first().isVisible()).resolves.toBe(true);
    expect(await v.getByRole("button", { name: "Remove" }).count()).toBe(0);
    await shot(v, "viewer-members");
    await v.goto(`${stack.dash.url}/w/${ws}/audit-log`);
    await expect(v.getByRole("cell").filter({ hasText: "member.join" }).first().isVisible()).resolves.toBe(true);
    // The monitors file is a read: a viewer may export it; subscriber e-mails are not theirs to export.
    expect((await v.request.get(`${stack.dash.url}/w/${ws}/monitors/export`)).status()).toBe(200);
    const subs = await v.request.get(`${stack.dash.url}/w/${ws}/status-pages/${page.id}/subscribers/export`, { maxRedirects: 0 });
    expect(subs.status()).toBe(403);

    // Every server action of the dashboard, posted straight to the server with the viewer's session.
    const fields: Record<string, string> = {
      workspaceId: String(ws),
      id: String(mon.id),
      monitorId: String(mon.id),
      channelId: String(channel.id),
      statusPageId: String(page.id),
      pageId: String(page.id),
      groupId: String(group.id),
      componentId: String(component.id),
      reportId: String(report.id),
      locationId: String(location.id),
      keyId: String(key.id),
      userId: ownerId,
      role: "viewer",
      name: "renamed by a viewer",
      title: "changed by a viewer",
      slug: "viewer-changed",
      email: "friend@viewer.test",
      message: "hello",
      status: "resolved",
      kind: "webhook",
      url: "https://hooks.example.com/y",
      enabled: "false",
      active: "false",
      required: "on",
      yaml: "monitors: {}",
      intent: "apply",
      direction: "up",
      source: "monitor",
    };
    const actions = serverActions().filter((a) => !PERSONAL.has(a.name));
    expect(actions.length).toBeGreaterThanOrEqual(40);
    const before = await snapshot();
    const refused: string[] = [];
    for (const a of actions) {
      const path = `/${a.page.replace(/^app\//, "").replace(/\/page$/, "")}`
        .replace("[ws]", String(ws))
        .replace("[reportId]", String(report.id))
        .replace(
          "[id]",
          a.page.includes("status-pages") ? String(page.id) : a.page.includes("notifications") ? String(channel.id) : String(mon.id),
        );
      const res = await callAction(viewer.ctx, a, path, fields);
      expect(res.status, `${a.name} via ${path}`).toBeLessThan(500);
      // The instance area's actions are for instance admins: anyone else, a workspace's viewer included, gets its 404.
      if (a.page.startsWith("app/instance")) expect(res.text, `${a.name} via ${path}`).toContain("NEXT_HTTP_ERROR_FALLBACK;404");
      else expect(res.text, `${a.name} via ${path}`).toContain("Viewers can look but not change anything");
      refused.push(a.name);
    }
    expect(refused).toEqual(
      expect.arrayContaining(["saveMonitorAction", "testMonitorAction", "triggerMonitorAction", "deleteMonitorAction"]),
    );
    expect(refused).toEqual(
      expect.arrayContaining(["testChannelAction", "removeSubscriberAction", "changeRoleAction", "createApiKeyAction"]),
    );
    expect(await snapshot()).toBe(before);

    // The owner, posting the same way, is not refused: the refusal is the viewer's role, not the transport.
    const rename = serverActions().find((a) => a.name === "renameWorkspaceAction")!;
    const ok = await callAction(owner.ctx, rename, `/w/${ws}/settings`, { workspaceId: String(ws), name: "Renamed by the owner" });
    expect(ok.text).not.toContain("Viewers can look");
    const { rows } = await stack.db.db.$client.execute({ sql: "SELECT name FROM workspace WHERE id = ?", args: [ws] });
    expect(rows[0]!.name).toBe("Renamed by the owner");

    // The owner makes a read-only key in the dashboard; the list shows each key's scopes.
    await owner.page.goto(`${stack.dash.url}/w/${ws}/api-keys`);
    await owner.page.getByLabel("Name").fill("status wall");
    await owner.page.getByRole("checkbox", { name: "write" }).uncheck();
    await owner.page.getByRole("button", { name: "Create key" }).click();
    await owner.page.getByTestId("secret").waitFor();
    await owner.page.keyboard.press("Escape");
    const scopes = await stack.db.db.$client.execute("SELECT scopes FROM api_key WHERE name = 'status wall'");
    expect(JSON.parse(String(scopes.rows[0]!.scopes))).toEqual(["read"]);
    await owner.page.getByRole("row").filter({ hasText: "status wall" }).getByTestId("scopes").filter({ hasText: "read" }).waitFor();
    await shot(owner.page, "api-keys-scopes");

    // Promoted by the owner in the members page, the viewer can change things at once.
    await owner.page.goto(`${stack.dash.url}/w/${ws}/members`);
    const row = owner.page.getByRole("row").filter({ hasText: "vera@viewer.test" });
    await row.getByLabel("Role").selectOption("member");
    await row.getByRole("button", { name: "Set" }).click();
    await expect
      .poll(async () => (await stack.db.db.$client.execute("SELECT role FROM workspace_member WHERE user_id = 'viewer-1'")).rows[0]!.role)
      .toBe("member");
    await shot(owner.page, "members-role-select");
    await v.goto(`${stack.dash.url}/w/${ws}/monitors`);
    expect(await v.getByTestId("viewer-banner").count()).toBe(0);
    const audit = await stack.db.db.$client.execute("SELECT metadata FROM audit_log WHERE action = 'member.role'");
    expect(JSON.parse(String(audit.rows.at(-1)!.metadata))).toMatchObject({ before: "viewer", after: "member" });
  });
});
