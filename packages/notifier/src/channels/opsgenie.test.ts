import { describe, expect, it } from "vitest";
import { notify } from "../notify";
import { byName, type ChannelCase, channelServer, expectedRequest, TEST_EVENTS, TEST_NOW, TEST_TEXT, testEnv } from "../testing";

const server = channelServer({ status: 202, body: '{"result":"Request will be processed"}' }, () => ({
  kind: "opsgenie",
  config: { apiKey: "og-key" },
}));
const { deliver } = server;

const alertsApi = (path: string, body: object) =>
  expectedRequest(
    path,
    [
      ["authorization", "GenieKey og-key"],
      ["content-type", "application/json"],
    ],
    body,
  );

/** A created alert: its message, alias and priority, and the details after Status, URL and Time. */
const create = (type: "error" | "degraded" | "test", message: string, alias: string, priority: string, facts: Record<string, string>) =>
  alertsApi("/v2/alerts", {
    message,
    alias,
    description: TEST_TEXT[type],
    details: {
      Status: type,
      URL: "https://api.example.com/health",
      Time: "2024-05-01T12:00:00.000Z",
      ...facts,
      Dashboard: "https://vigil.example.com/monitors/42",
    },
    entity: "https://api.example.com/health",
    source: "Vigil",
    tags: ["vigil", type],
    priority,
  });

const CASES: ChannelCase[] = [
  {
    event: "error",
    name: "an error creates a P1 alert with the monitor's alias",
    expected: create("error", "API health is down", "vigil-monitor-42", "P1", {
      "Status code": "503",
      Latency: "1532 ms",
      Error: "expected status 200, got 503",
    }),
  },
  {
    event: "degraded",
    name: "degraded creates a P3 alert under the same alias",
    expected: create("degraded", "API health is degraded", "vigil-monitor-42", "P3", { "Status code": "200", Latency: "2450 ms" }),
  },
  {
    event: "recovered",
    name: "a recovery closes the alert by its alias",
    expected: alertsApi("/v2/alerts/vigil-monitor-42/close?identifierType=alias", { source: "Vigil", note: TEST_TEXT.recovered }),
  },
  {
    event: "test",
    name: "a test creates a P5 alert under a separate test alias",
    expected: create("test", "Test notification for API health", "vigil-monitor-42-test", "P5", {}),
  },
];

describe("opsgenie channel", () => {
  it.each(byName(CASES))("%s", async (_name, { event, expected }) => {
    expect(await deliver(event)).toEqual(expected);
  });
});

describe("opsgenie alert lifecycle and region", () => {
  it("the recovery closes the alias the error created", async () => {
    const error = JSON.parse((await deliver("error"))!.body);
    const recovery = (await deliver("recovered"))!;
    expect(recovery.path).toBe(`/v2/alerts/${error.alias}/close?identifierType=alias`);
  });

  it("an eu account is sent to the EU API", async () => {
    await notify({ kind: "opsgenie", config: { apiKey: "og-key", region: "eu" } }, TEST_EVENTS.error, testEnv(server.url), {
      now: TEST_NOW,
    });
    expect(server.requests.at(-1)!.path).toBe("/eu/v2/alerts");
  });
});
