import { describe, expect, it } from "vitest";
import { notify } from "../notify";
import { byName, type ChannelCase, channelServer, expectedRequest, TEST_EVENTS, TEST_NOW, TEST_TEXT, testEnv } from "../testing";

const server = channelServer({ status: 200, body: "ok" }, (url) => ({
  kind: "grafana-oncall",
  config: { webhookUrl: `${url}/integrations/v1/formatted_webhook/abc/` },
}));

const alert = (alert_uid: string, title: string, state: string, message: string) =>
  expectedRequest("/integrations/v1/formatted_webhook/abc/", [["content-type", "application/json"]], {
    alert_uid,
    title,
    state,
    link_to_upstream_details: "https://vigil.example.com/monitors/42",
    message,
  });

const CASES: ChannelCase[] = [
  {
    event: "error",
    name: "an error opens an alerting alert grouped under the monitor's uid",
    expected: alert("vigil-monitor-42", "API health is down", "alerting", TEST_TEXT.error),
  },
  {
    event: "degraded",
    name: "degraded alerts under the same uid as an error",
    expected: alert("vigil-monitor-42", "API health is degraded", "alerting", TEST_TEXT.degraded),
  },
  {
    event: "recovered",
    name: "a recovery sends state ok under the same uid, which resolves the alert group",
    expected: alert("vigil-monitor-42", "API health has recovered", "ok", TEST_TEXT.recovered),
  },
  {
    event: "test",
    name: "a test alerts under a separate test uid so it never resolves a real alert",
    expected: alert("vigil-monitor-42-test", "Test notification for API health", "alerting", TEST_TEXT.test),
  },
];

describe("grafana-oncall channel", () => {
  it.each(byName(CASES))("%s", async (_name, { event, expected }) => {
    expect(await server.deliver(event)).toEqual(expected);
  });
});

describe("grafana-oncall titles", () => {
  it("a monitor without a name is announced by its URL, and a name with line breaks stays on one line", async () => {
    const config = { webhookUrl: `${server.url}/o` };
    const unnamed = { ...TEST_EVENTS.error, monitor: { ...TEST_EVENTS.error.monitor, name: "" } };
    await notify({ kind: "grafana-oncall", config }, unnamed, testEnv(server.url), { now: TEST_NOW });
    expect(JSON.parse(server.requests.at(-1)!.body).title).toBe("https://api.example.com/health is down");
    const multiline = { ...TEST_EVENTS.error, monitor: { ...TEST_EVENTS.error.monitor, name: "API\r\nhealth\t" } };
    await notify({ kind: "grafana-oncall", config }, multiline, testEnv(server.url), { now: TEST_NOW });
    expect(JSON.parse(server.requests.at(-1)!.body).title).toBe("API health is down");
  });
});
