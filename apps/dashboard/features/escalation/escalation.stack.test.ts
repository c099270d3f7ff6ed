import {
  acceptInvitation,
  createChannel,
  createMonitor,
  createPrivateLocation,
  evaluateMonitor,
  fireDueTimers,
  getMonitor,
  inviteMember,
  listAuditLog,
  listEscalationPolicies,
  recordResults,
  routeAlert,
  setLimits,
} from "@vigil/core";
import { user } from "@vigil/db-schema";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { callAction, mailDashboardFixture, serverActions, shot } from "../../src/testing";

const stack = mailDashboardFixture();

const count = async (table: string) => Number((await stack.db.db.$client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
let n = 0;
/** A result id as a probe makes them (26 Crockford base32 characters). */
const resultId = () => `01JDASHB0ARD${String(++n).padStart(14, "0")}`;

describe("escalation and acknowledgement in the dashboard", () => {
  let ws: number;
  let owner: { ctx: BrowserContext; page: Page };
  let ownerId: string;
  let api: number;
  let database: number;
  let location: { id: number; workspaceId: number; region: string };

  it("a member builds a 2-step escalation policy, assigns it to a monitor with thresholds, reminders and a dependency; bad input is refused beside its field", {
    timeout: 300_000,
  }, async () => {
    owner = await stack.signIn("owner@escalation.test");
    ws = Number(/\/w\/(\d+)/.exec(owner.page.url())![1]);
    await setLimits(stack.db.db, ws, "unlimited", "operator");
    ownerId = String((await stack.db.db.$client.execute("SELECT id FROM user WHERE email = 'owner@escalation.test'")).rows[0]!.id);
    const actor = `user:${ownerId}`;
    const loc = await createPrivateLocation(stack.db.db, ws, { name: "rack-1", region: "fra" }, actor);
    location = { id: loc.location.id, workspaceId: ws, region: "fra" };
    const tcp = (key: string, name: string, port: number) =>
      createMonitor(
        stack.db.db,
        ws,
        { kind: "tcp", key, name, frequency: "1m", regions: ["fra"], request: { host: "db.internal", port } },
        actor,
      );
    database = (await tcp("db", "Database", 5432)).id;
    api = (await tcp("api", "Checkout API", 443)).id;
    await createChannel(
      stack.db.db,
      ws,
      { name: "pager", kind: "webhook", config: { url: "https://hooks.example.com/pager" }, monitors: [api, database] },
      actor,
    );
    await createChannel(stack.db.db, ws, { name: "team lead", kind: "webhook", config: { url: "https://hooks.example.com/lead" } }, actor);
    const p = owner.page;

    // The nav leads to the page; with no policy it says what one is for.
    await p.goto(`${stack.dash.url}/w/${ws}/monitors`);
    await p.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Escalation" }).click();
    await p.getByText("No escalation policies yet").waitFor();
    await shot(p, "escalation-empty");

    // Two steps, the second without a channel: refused beside the step, nothing written.
    await p.getByRole("link", { name: "New policy" }).first().click();
    await p.getByLabel("Name").fill("on-call");
    await p.getByRole("group", { name: "Step 1 notifies" }).getByLabel("pager").check();
    await p.getByRole("button", { name: "Add step" }).click();
    await expect(p.getByLabel("Step 2: after (minutes)").inputValue()).resolves.toBe("15");
    await p.getByRole("button", { name: "Create policy" }).click();
    await p.getByText("Step 2 channels must list at least one channel", { exact: true }).waitFor();
    expect(await count("escalation_policy")).toBe(0);
    await shot(p, "escalation-step-without-channel");

    // Fixed, with the last step repeated: saved as typed.
    await p.getByRole("group", { name: "Step 2 notifies" }).getByLabel("team lead").check();
    await p.getByLabel("Repeat the last step until someone acknowledges").check();
    await p.getByLabel("Every (minutes)").fill("30");
    await p.getByRole("button", { name: "Create policy" }).click();
    await p.getByTestId("saved").waitFor();
    const [policy] = await listEscalationPolicies(stack.db.db, ws);
    expect(policy).toMatchObject({
      name: "on-call",
      steps: [
        { afterMinutes: 0, channels: ["pager"] },
        { afterMinutes: 15, channels: ["team lead"] },
      ],
      repeatLastEveryMinutes: 30,
    });
    await expect(p.getByTestId(`policy-${policy!.id}`).getByTestId("step").allTextContents()).resolves.toEqual([
      "1at oncepager",
      "2after 15 minteam lead",
    ]);

    // The monitor form: a threshold of 0 and a reminder under 5 minutes are refused beside their fields, nothing written.
    await p.goto(`${stack.dash.url}/w/${ws}/monitors/${api}/edit`);
    await p.getByLabel("Failures before alert").fill("0");
    await p.getByLabel("Remind every").fill("2m");
    await p.getByRole("button", { name: "Save changes" }).click();
    await p.getByText("Failures before alert must be 1-100").waitFor();
    await p.getByText("Remind every must be at least 5 minutes").waitFor();
    await shot(p, "monitor-form-alert-errors");
    expect(await getMonitor(stack.db.db, ws, api)).toMatchObject({ failureThreshold: 1, remindEvery: null, escalationPolicy: null });

    await p.getByLabel("Failures before alert").fill("3");
    await p.getByLabel("Successes before recovery").fill("2");
    await p.getByLabel("Remind every").fill("30m");
    await p.getByLabel("Escalation policy").selectOption("on-call");
    await p.getByRole("group", { name: "Depends on" }).getByLabel("Database").check();
    await shot(p, "monitor-form-alerts");
    await p.getByRole("button", { name: "Save changes" }).click();
    await p.waitForURL(/\/monitors\?saved=/);
    expect(await getMonitor(stack.db.db, ws, api)).toMatchObject({
      failureThreshold: 3,
      successThreshold: 2,
      remindEvery: 1_800_000,
      escalationPolicy: "on-call",
      dependsOn: ["db"],
    });

    // The parent made to depend on its child: a cycle, refused naming the field.
    await p.goto(`${stack.dash.url}/w/${ws}/monitors/${database}/edit`);
    await p.getByRole("group", { name: "Depends on" }).getByLabel("Checkout API").check();
    await p.getByRole("button", { name: "Save changes" }).click();
    await p.getByText(/Depends on would make a dependency cycle: db → api → db/).waitFor();
    expect((await getMonitor(stack.db.db, ws, database)).dependsOn).toEqual([]);

    // Edited in place: the monitor keeps it.
    await p.goto(`${stack.dash.url}/w/${ws}/escalation`);
    await p.getByTestId(`policy-${policy!.id}`).getByRole("link", { name: "Edit" }).click();
    await p.getByLabel("Step 2: after (minutes)").fill("20");
    await p.getByRole("button", { name: "Save policy" }).click();
    await p.getByTestId("saved").waitFor();
    expect((await listEscalationPolicies(stack.db.db, ws))[0]!.steps[1]).toEqual({ afterMinutes: 20, channels: ["team lead"] });
    await p.getByTestId(`policy-${policy!.id}`).getByRole("link", { name: "Checkout API" }).waitFor();
    await shot(p, "escalation-policies");
  });

  it("the monitor page shows an unacknowledged alert and its parent's suppression; Acknowledge records who and when; a viewer can do neither", {
    timeout: 300_000,
  }, async () => {
    expect(api).toBeDefined();
    // The parent and its child go down together (the child after three failed checks, its threshold).
    const t0 = Date.UTC(2026, 10, 27, 9);
    const slots = [t0, t0 + 60_000, t0 + 120_000];
    for (const at of slots) {
      await recordResults(stack.db.db, location, {
        results: [database, api].map((monitorId) => ({
          id: resultId(),
          monitorId,
          cronTimestamp: at,
          startedAt: at,
          attempts: 1,
          latencyMs: 5,
          status: "error",
          errorMessage: "connection refused",
        })),
      });
      await evaluateMonitor(stack.db.db, database);
      await evaluateMonitor(stack.db.db, api);
    }
    const events = (await stack.db.db.$client.execute("SELECT id, monitor_id FROM status_event ORDER BY id")).rows;
    expect(events.map((e) => Number(e.monitor_id))).toEqual([database, api]);
    // The workflows' routing: the child's alert is held for its parent, then logged as suppressed.
    const childEvent = Number(events[1]!.id);
    expect(await routeAlert(stack.db.db, childEvent)).toEqual({ held: true });
    await fireDueTimers(stack.db.db, async () => {}, { nowMs: Date.now() + 10_000 });

    const p = owner.page;
    await p.goto(`${stack.dash.url}/w/${ws}/monitors/${api}`);
    const panel = p.getByTestId("alert-ack");
    await panel.getByText("not acknowledged").waitFor();
    await p.getByTestId("status-event").first().getByText("suppressed: parent Database down").waitFor();
    // Its parent by name, linked to the parent's page (the key "db" is what the API and YAML store).
    const parentLink = p.getByTestId("depends-on").getByRole("link", { name: "Database", exact: true });
    await expect(parentLink.getAttribute("href")).resolves.toBe(`/w/${ws}/monitors/${database}`);
    await expect(p.getByTestId("alert-settings").textContent()).resolves.toBe(
      "reminds every 30 min · escalation: on-call · depends on Database",
    );
    await shot(p, "monitor-unacknowledged");

    // A viewer sees the state but no button, and no policy controls; the actions, posted directly, are refused.
    await stack.db.db.insert(user).values({ id: "viewer-esc", email: "vic@escalation.test" });
    const { token } = await inviteMember(stack.db.db, ws, { email: "vic@escalation.test", role: "viewer" }, `user:${ownerId}`);
    await acceptInvitation(stack.db.db, token, { id: "viewer-esc", email: "vic@escalation.test" });
    const viewer = await stack.signIn("vic@escalation.test");
    await viewer.page.goto(`${stack.dash.url}/w/${ws}/monitors/${api}`);
    await viewer.page.getByTestId("alert-ack").getByText("not acknowledged").waitFor();
    expect(await viewer.page.getByRole("button", { name: "Acknowledge" }).count()).toBe(0);
    // In the list too: both monitors are down and unacknowledged, and a viewer is told so without a button.
    await viewer.page.goto(`${stack.dash.url}/w/${ws}/monitors`);
    for (const id of [api, database]) await viewer.page.locator(`tr[data-monitor="${id}"]`).getByText("not acknowledged").waitFor();
    expect(await viewer.page.getByRole("button", { name: /Acknowledge/ }).count()).toBe(0);
    await viewer.page.goto(`${stack.dash.url}/w/${ws}/escalation`);
    await viewer.page.getByText("on-call").first().waitFor();
    expect(await viewer.page.getByRole("link", { name: /New policy|Edit/ }).count()).toBe(0);
    expect(await viewer.page.getByRole("button", { name: "Delete" }).count()).toBe(0);
    const actions = new Map(serverActions().map((a) => [a.name, a]));
    const asViewer = (name: string, path: string, fields: Record<string, string>) =>
      callAction(stack.dash.url, viewer.ctx, actions.get(name)!, path, { workspaceId: String(ws), ...fields });
    const policyId = (await listEscalationPolicies(stack.db.db, ws))[0]!.id;
    for (const [name, path, fields] of [
      ["savePolicyAction", `/w/${ws}/escalation`, { name: "viewer's", "step.0.afterMinutes": "0", "step.0.channels": "pager" }],
      ["deletePolicyAction", `/w/${ws}/escalation`, { policyId: String(policyId) }],
      ["acknowledgeAction", `/w/${ws}/monitors/${api}`, { monitorId: String(api) }],
    ] as const) {
      const res = await asViewer(name, path, fields);
      expect(res.status, name).toBeLessThan(500);
      expect(res.text, name).toContain("Viewers can look but not change anything");
    }
    expect(await count("escalation_policy")).toBe(1);
    expect(await count("alert_ack")).toBe(0);

    // Another workspace's id is a 404, whoever asks.
    const elsewhere = await callAction(stack.dash.url, owner.ctx, actions.get("acknowledgeAction")!, `/w/${ws}/monitors/${api}`, {
      workspaceId: String(ws + 1000),
      monitorId: String(api),
    });
    expect(elsewhere.status).toBe(404);

    // The owner's list offers Acknowledge on each row whose alert is open; acknowledging the parent there
    // marks its row, leaves the child's button, and the parent's page and audit log say who.
    await p.goto(`${stack.dash.url}/w/${ws}/monitors`);
    const row = (id: number) => p.locator(`tr[data-monitor="${id}"]`);
    await row(api).getByRole("button", { name: "Acknowledge Checkout API" }).waitFor();
    await row(database).getByRole("button", { name: "Acknowledge Database" }).click();
    await row(database).getByText("acknowledged", { exact: true }).waitFor();
    expect(
      await row(database)
        .getByRole("button", { name: /Acknowledge/ })
        .count(),
    ).toBe(0);
    await row(api).getByRole("button", { name: "Acknowledge Checkout API" }).waitFor();
    await shot(p, "monitors-acknowledge");
    expect((await listAuditLog(stack.db.db, ws)).filter((e) => e.action === "alert.acknowledge").map((e) => e.targetId)).toEqual([
      String(database),
    ]);
    await p.goto(`${stack.dash.url}/w/${ws}/monitors/${database}`);
    await p.getByTestId("alert-ack").getByText("By owner@escalation.test via dashboard", { exact: false }).waitFor();

    // The owner acknowledges the child on its page: the page, the incident and the audit log say who and when.
    await p.goto(`${stack.dash.url}/w/${ws}/monitors/${api}`);
    await p.getByRole("button", { name: "Acknowledge" }).click();
    await panel.getByText("Acknowledged", { exact: true }).waitFor();
    await expect(panel.textContent()).resolves.toContain("By owner@escalation.test via dashboard");
    await p.getByTestId("incident-ack").getByText("Acknowledged by owner@escalation.test via dashboard").waitFor();
    expect(await p.getByRole("button", { name: "Acknowledge" }).count()).toBe(0);
    await shot(p, "monitor-acknowledged");
    const inc = await stack.db.db.$client.execute({ sql: "SELECT acknowledged_by FROM incident WHERE monitor_id = ?", args: [api] });
    expect(inc.rows.map((r) => r.acknowledged_by)).toEqual([`user:${ownerId}`]);
    expect((await listAuditLog(stack.db.db, ws)).find((e) => e.action === "alert.acknowledge" && e.targetId === String(api))).toMatchObject(
      {
        actor: `user:${ownerId}`,
      },
    );
    await viewer.ctx.close();

    // Deleting the policy asks first; its monitor keeps alerting its own channels.
    await p.goto(`${stack.dash.url}/w/${ws}/escalation`);
    await p.getByRole("button", { name: "Delete" }).click();
    await p.getByRole("alertdialog").getByRole("button", { name: "Delete policy" }).click();
    await p.getByText("No escalation policies yet").waitFor();
    expect((await getMonitor(stack.db.db, ws, api)).escalationPolicy).toBeNull();
  });
});
