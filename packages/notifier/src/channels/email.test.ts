import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "../notify";
import {
  byName,
  type ChannelCase,
  channelServer,
  expectedRequest,
  type SmtpCaptureServer,
  startSmtpServer,
  TEST_EVENTS,
  TEST_NOW,
  TEST_TEXT,
  type TestEventType,
  testEnv,
} from "../testing";

const server = channelServer({ status: 200, body: '{"id":"e1"}' }, () => ({ kind: "email", config: { email: "ops@example.com" } }));

/** The email API request for one event: an idempotency key per monitor, slot and event, the subject, both parts. */
const sendEmail = (type: TestEventType, subject: string, html: string) =>
  expectedRequest(
    "/emails",
    [
      ["authorization", "Bearer re_test_key"],
      ["content-type", "application/json"],
      ["idempotency-key", `vigil-42-1714564800000-${type}`],
    ],
    { from: "Vigil <alerts@vigil.example.com>", to: ["ops@example.com"], subject, text: TEST_TEXT[type], html },
  );

const CASES: ChannelCase[] = [
  {
    event: "error",
    name: "an error sends a text and an HTML part through the email API with an idempotency key",
    expected: sendEmail(
      "error",
      "[Vigil] API health is down",
      '<!doctype html>\n<html><body style="font-family:sans-serif">\n<h2 style="color:#c0392b">API health is down</h2>\n<table>\n<tr><th align="left">Status</th><td>error</td></tr>\n<tr><th align="left">URL</th><td>https://api.example.com/health</td></tr>\n<tr><th align="left">Time</th><td>2024-05-01T12:00:00.000Z</td></tr>\n<tr><th align="left">Status code</th><td>503</td></tr>\n<tr><th align="left">Latency</th><td>1532 ms</td></tr>\n<tr><th align="left">Error</th><td>expected status 200, got 503</td></tr>\n</table>\n<p><a href="https://vigil.example.com/monitors/42">Open in Vigil</a></p>\n</body></html>',
    ),
  },
  {
    event: "degraded",
    name: "degraded sends the slow latency by email",
    expected: sendEmail(
      "degraded",
      "[Vigil] API health is degraded",
      '<!doctype html>\n<html><body style="font-family:sans-serif">\n<h2 style="color:#d35400">API health is degraded</h2>\n<table>\n<tr><th align="left">Status</th><td>degraded</td></tr>\n<tr><th align="left">URL</th><td>https://api.example.com/health</td></tr>\n<tr><th align="left">Time</th><td>2024-05-01T12:00:00.000Z</td></tr>\n<tr><th align="left">Status code</th><td>200</td></tr>\n<tr><th align="left">Latency</th><td>2450 ms</td></tr>\n</table>\n<p><a href="https://vigil.example.com/monitors/42">Open in Vigil</a></p>\n</body></html>',
    ),
  },
  {
    event: "recovered",
    name: "a recovery sends the status code and latency by email",
    expected: sendEmail(
      "recovered",
      "[Vigil] API health has recovered",
      '<!doctype html>\n<html><body style="font-family:sans-serif">\n<h2 style="color:#27ae60">API health has recovered</h2>\n<table>\n<tr><th align="left">Status</th><td>recovered</td></tr>\n<tr><th align="left">URL</th><td>https://api.example.com/health</td></tr>\n<tr><th align="left">Time</th><td>2024-05-01T12:00:00.000Z</td></tr>\n<tr><th align="left">Status code</th><td>200</td></tr>\n<tr><th align="left">Latency</th><td>87 ms</td></tr>\n</table>\n<p><a href="https://vigil.example.com/monitors/42">Open in Vigil</a></p>\n</body></html>',
    ),
  },
  {
    event: "test",
    name: "a test sends the monitor's name, URL and time by email",
    expected: sendEmail(
      "test",
      "[Vigil] Test notification for API health",
      '<!doctype html>\n<html><body style="font-family:sans-serif">\n<h2 style="color:#2980b9">Test notification for API health</h2>\n<table>\n<tr><th align="left">Status</th><td>test</td></tr>\n<tr><th align="left">URL</th><td>https://api.example.com/health</td></tr>\n<tr><th align="left">Time</th><td>2024-05-01T12:00:00.000Z</td></tr>\n</table>\n<p><a href="https://vigil.example.com/monitors/42">Open in Vigil</a></p>\n</body></html>',
    ),
  },
];

describe("email channel (HTTP API)", () => {
  it.each(byName(CASES))("%s", async (_name, { event, expected }) => {
    expect(await server.deliver(event)).toEqual(expected);
  });
});

describe("email channel (SMTP)", () => {
  let smtp: SmtpCaptureServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp.close());

  // Message-ID, Date and MIME boundary are fixed by the event and the sending time, so a retry is the same mail.
  const RAW: Record<TestEventType, string> = {
    error: [
      "From: Vigil <alerts@vigil.example.com>",
      "To: ops@example.com",
      "Subject: [Vigil] API health is down",
      "Message-ID: <vigil-42-1714564800000-error@vigil.example.com>",
      "Date: Wed, 01 May 2024 12:00:30 +0000",
      "MIME-Version: 1.0",
      "Content-Type: multipart/alternative;",
      ' boundary="--_NmP-ea9c6f277377ff3f-Part_1"',
      "",
      "----_NmP-ea9c6f277377ff3f-Part_1",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 7bit",
      "",
      "API health is down",
      "Status: error",
      "URL: https://api.example.com/health",
      "Time: 2024-05-01T12:00:00.000Z",
      "Status code: 503",
      "Latency: 1532 ms",
      "Error: expected status 200, got 503",
      "Open in Vigil: https://vigil.example.com/monitors/42",
      "----_NmP-ea9c6f277377ff3f-Part_1",
      "Content-Type: text/html; charset=utf-8",
      "Content-Transfer-Encoding: 7bit",
      "",
      "<!doctype html>",
      '<html><body style="font-family:sans-serif">',
      '<h2 style="color:#c0392b">API health is down</h2>',
      "<table>",
      '<tr><th align="left">Status</th><td>error</td></tr>',
      '<tr><th align="left">URL</th><td>https://api.example.com/health</td></tr>',
      '<tr><th align="left">Time</th><td>2024-05-01T12:00:00.000Z</td></tr>',
      '<tr><th align="left">Status code</th><td>503</td></tr>',
      '<tr><th align="left">Latency</th><td>1532 ms</td></tr>',
      '<tr><th align="left">Error</th><td>expected status 200, got 503</td></tr>',
      "</table>",
      '<p><a href="https://vigil.example.com/monitors/42">Open in Vigil</a></p>',
      "</body></html>",
      "----_NmP-ea9c6f277377ff3f-Part_1--",
      "",
    ].join("\r\n"),
    degraded: [
      "From: Vigil <alerts@vigil.example.com>",
      "To: ops@example.com",
      "Subject: [Vigil] API health is degraded",
      "Message-ID: <vigil-42-1714564800000-degraded@vigil.example.com>",
      "Date: Wed, 01 May 2024 12:00:30 +0000",
      "MIME-Version: 1.0",
      "Content-Type: multipart/alternative;",
      ' boundary="--_NmP-d7e1c9496cc14ad7-Part_1"',
      "",
      "----_NmP-d7e1c9496cc14ad7-Part_1",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 7bit",
      "",
      "API health is degraded",
      "Status: degraded",
      "URL: https://api.example.com/health",
      "Time: 2024-05-01T12:00:00.000Z",
      "Status code: 200",
      "Latency: 2450 ms",
      "Open in Vigil: https://vigil.example.com/monitors/42",
      "----_NmP-d7e1c9496cc14ad7-Part_1",
      "Content-Type: text/html; charset=utf-8",
      "Content-Transfer-Encoding: 7bit",
      "",
      "<!doctype html>",
      '<html><body style="font-family:sans-serif">',
      '<h2 style="color:#d35400">API health is degraded</h2>',
      "<table>",
      '<tr><th align="left">Status</th><td>degraded</td></tr>',
      '<tr><th align="left">URL</th><td>https://api.example.com/health</td></tr>',
      '<tr><th align="left">Time</th><td>2024-05-01T12:00:00.000Z</td></tr>',
      '<tr><th align="left">Status code</th><td>200</td></tr>',
      '<tr><th align="left">Latency</th><td>2450 ms</td></tr>',
      "</table>",
      '<p><a href="https://vigil.example.com/monitors/42">Open in Vigil</a></p>',
      "</body></html>",
      "----_NmP-d7e1c9496cc14ad7-Part_1--",
      "",
    ].join("\r\n"),
    recovered: [
      "From: Vigil <alerts@vigil.example.com>",
      "To: ops@example.com",
      "Subject: [Vigil] API health has recovered",
      "Message-ID: <vigil-42-1714564800000-recovered@vigil.example.com>",
      "Date: Wed, 01 May 2024 12:00:30 +0000",
      "MIME-Version: 1.0",
      "Content-Type: multipart/alternative;",
      ' boundary="--_NmP-594380d734ef6801-Part_1"',
      "",
      "----_NmP-594380d734ef6801-Part_1",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 7bit",
      "",
      "API health has recovered",
      "Status: recovered",
      "URL: https://api.example.com/health",
      "Time: 2024-05-01T12:00:00.000Z",
      "Status code: 200",
      "Latency: 87 ms",
      "Open in Vigil: https://vigil.example.com/monitors/42",
      "----_NmP-594380d734ef6801-Part_1",
      "Content-Type: text/html; charset=utf-8",
      "Content-Transfer-Encoding: 7bit",
      "",
      "<!doctype html>",
      '<html><body style="font-family:sans-serif">',
      '<h2 style="color:#27ae60">API health has recovered</h2>',
      "<table>",
      '<tr><th align="left">Status</th><td>recovered</td></tr>',
      '<tr><th align="left">URL</th><td>https://api.example.com/health</td></tr>',
      '<tr><th align="left">Time</th><td>2024-05-01T12:00:00.000Z</td></tr>',
      '<tr><th align="left">Status code</th><td>200</td></tr>',
      '<tr><th align="left">Latency</th><td>87 ms</td></tr>',
      "</table>",
      '<p><a href="https://vigil.example.com/monitors/42">Open in Vigil</a></p>',
      "</body></html>",
      "----_NmP-594380d734ef6801-Part_1--",
      "",
    ].join("\r\n"),
    test: [
      "From: Vigil <alerts@vigil.example.com>",
      "To: ops@example.com",
      "Subject: [Vigil] Test notification for API health",
      "Message-ID: <vigil-42-1714564800000-test@vigil.example.com>",
      "Date: Wed, 01 May 2024 12:00:30 +0000",
      "MIME-Version: 1.0",
      "Content-Type: multipart/alternative;",
      ' boundary="--_NmP-3778b50f57a30322-Part_1"',
      "",
      "----_NmP-3778b50f57a30322-Part_1",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 7bit",
      "",
      "Test notification for API health",
      "Status: test",
      "URL: https://api.example.com/health",
      "Time: 2024-05-01T12:00:00.000Z",
      "Open in Vigil: https://vigil.example.com/monitors/42",
      "----_NmP-3778b50f57a30322-Part_1",
      "Content-Type: text/html; charset=utf-8",
      "Content-Transfer-Encoding: 7bit",
      "",
      "<!doctype html>",
      '<html><body style="font-family:sans-serif">',
      '<h2 style="color:#2980b9">Test notification for API health</h2>',
      "<table>",
      '<tr><th align="left">Status</th><td>test</td></tr>',
      '<tr><th align="left">URL</th><td>https://api.example.com/health</td></tr>',
      '<tr><th align="left">Time</th><td>2024-05-01T12:00:00.000Z</td></tr>',
      "</table>",
      '<p><a href="https://vigil.example.com/monitors/42">Open in Vigil</a></p>',
      "</body></html>",
      "----_NmP-3778b50f57a30322-Part_1--",
      "",
    ].join("\r\n"),
  };

  it.each(["error", "degraded", "recovered", "test"] as const)(
    "a %s event is mailed over SMTP (which wins over the API key) with a text and an HTML part",
    async (type) => {
      const before = server.requests.length;
      const env = testEnv(server.url, { SMTP_URL: smtp.url });
      const result = await notify({ kind: "email", config: { email: "ops@example.com" } }, TEST_EVENTS[type], env, { now: TEST_NOW });
      expect(result).toEqual({ ok: true, status: 250 });
      expect(smtp.mails.at(-1)).toEqual({ from: "alerts@vigil.example.com", to: ["ops@example.com"], raw: RAW[type] });
      expect(server.requests.length).toBe(before);
    },
  );
});

describe("email content and setup", () => {
  it("user strings are HTML-escaped in the HTML part and left as typed in the text part", async () => {
    const event = {
      ...TEST_EVENTS.error,
      monitor: { ...TEST_EVENTS.error.monitor, name: `<script>alert("x")</script> & co` },
      errorMessage: "<b>boom</b>",
    };
    await notify({ kind: "email", config: { email: "ops@example.com" } }, event, testEnv(server.url), { now: TEST_NOW });
    const mail = JSON.parse(server.requests.at(-1)!.body) as { subject: string; text: string; html: string };
    expect(mail.subject).toBe(`[Vigil] <script>alert("x")</script> & co is down`);
    expect(mail.text).toContain(`<script>alert("x")</script> & co is down\n`);
    expect(mail.text).toContain("Error: <b>boom</b>\n");
    expect(mail.html).toContain(`<h2 style="color:#c0392b">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co is down</h2>`);
    expect(mail.html).toContain("<td>&lt;b&gt;boom&lt;/b&gt;</td>");
    expect(mail.html).not.toContain("<script>");
  });

  it("an SMTP 5xx refusal is a permanent failure and a 4xx one is retried", async () => {
    const env = (url: string) => testEnv(server.url, { SMTP_URL: url });
    const refusing = await startSmtpServer({ code: 550, message: "mailbox unavailable" });
    const busy = await startSmtpServer({ code: 451, message: "try again later" });
    try {
      const refused = await notify({ kind: "email", config: { email: "ops@example.com" } }, TEST_EVENTS.error, env(refusing.url));
      expect(refused).toMatchObject({ ok: false, retryable: false, status: 550 });
      expect(refused.ok === false && refused.error).toContain("mailbox unavailable");
      const deferred = await notify({ kind: "email", config: { email: "ops@example.com" } }, TEST_EVENTS.error, env(busy.url));
      expect(deferred).toMatchObject({ ok: false, retryable: true, status: 451 });
    } finally {
      await Promise.all([refusing.close(), busy.close()]);
    }
  });

  it("without SMTP_URL or EMAIL_PROVIDER_API_KEY, or without EMAIL_FROM, it fails permanently naming the variable", async () => {
    const before = server.requests.length;
    const noTransport = testEnv(server.url);
    delete noTransport.EMAIL_PROVIDER_API_KEY;
    await expect(notify({ kind: "email", config: { email: "ops@example.com" } }, TEST_EVENTS.error, noTransport)).resolves.toEqual({
      ok: false,
      retryable: false,
      error: "neither SMTP_URL nor EMAIL_PROVIDER_API_KEY is set; the email channel needs one",
    });
    const noFrom = testEnv(server.url);
    delete noFrom.EMAIL_FROM;
    await expect(notify({ kind: "email", config: { email: "ops@example.com" } }, TEST_EVENTS.error, noFrom)).resolves.toEqual({
      ok: false,
      retryable: false,
      error: "EMAIL_FROM is not set; the email channel needs it",
    });
    expect(server.requests.length).toBe(before);
  });
});
