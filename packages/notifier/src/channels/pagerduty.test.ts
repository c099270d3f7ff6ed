import { describe, expect, it } from "vitest";
import { byName, type ChannelCase, channelServer, expectedRequest } from "../testing";

const { deliver } = channelServer({ status: 202, body: '{"status":"success"}' }, () => ({
  kind: "pagerduty",
  config: { routingKey: "R0123456789abcdef0123456789ABCDE" },
}));

const enqueue = (body: object) =>
  expectedRequest("/v2/enqueue", [["content-type", "application/json"]], { routing_key: "R0123456789abcdef0123456789ABCDE", ...body });

/** A trigger event: its dedup key, summary, severity and the facts after Status, URL and Time. */
const trigger = (dedup_key: string, summary: string, severity: string, status: string, facts: Record<string, string>) =>
  enqueue({
    event_action: "trigger",
    dedup_key,
    payload: {
      summary,
      source: "https://api.example.com/health",
      severity,
      timestamp: "2024-05-01T12:00:00.000Z",
      component: "API health",
      custom_details: { Status: status, URL: "https://api.example.com/health", Time: "2024-05-01T12:00:00.000Z", ...facts },
    },
    client: "Vigil",
    client_url: "https://vigil.example.com/monitors/42",
    links: [{ href: "https://vigil.example.com/monitors/42", text: "Open in Vigil" }],
  });

const CASES: ChannelCase[] = [
  {
    event: "error",
    name: "an error triggers a critical event deduplicated per monitor",
    expected: trigger("vigil-monitor-42", "API health is down: expected status 200, got 503", "critical", "error", {
      "Status code": "503",
      Latency: "1532 ms",
      Error: "expected status 200, got 503",
    }),
  },
  {
    event: "degraded",
    name: "degraded triggers a warning event under the same dedup key",
    expected: trigger("vigil-monitor-42", "API health is degraded", "warning", "degraded", { "Status code": "200", Latency: "2450 ms" }),
  },
  {
    event: "recovered",
    name: "a recovery resolves the incident under the same dedup key",
    expected: enqueue({ event_action: "resolve", dedup_key: "vigil-monitor-42" }),
  },
  {
    event: "test",
    name: "a test triggers an info event under a separate test dedup key",
    expected: trigger("vigil-monitor-42-test", "Test notification for API health", "info", "test", {}),
  },
];

describe("pagerduty channel", () => {
  it.each(byName(CASES))("%s", async (_name, { event, expected }) => {
    expect(await deliver(event)).toEqual(expected);
  });
});

describe("pagerduty incident lifecycle", () => {
  it("the recovery's dedup key is the error's, so it resolves the incident the error opened", async () => {
    const error = JSON.parse((await deliver("error"))!.body);
    const recovery = JSON.parse((await deliver("recovered"))!.body);
    expect(recovery.dedup_key).toBe(error.dedup_key);
    expect([error.event_action, recovery.event_action]).toEqual(["trigger", "resolve"]);
    const test = JSON.parse((await deliver("test"))!.body);
    expect(test.dedup_key).not.toBe(error.dedup_key);
  });
});
