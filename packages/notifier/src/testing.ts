import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, expect } from "vitest";
import { NotifierEnv } from "./env";
import type { NotificationEvent } from "./event";
import { notify } from "./notify";

/** Loopback servers and fixtures for the notifier's tests (and for apps that test their use of it). */

export interface CapturedRequest {
  method: string;
  path: string;
  /** Raw header pairs in wire order, minus `host` (carries the port) and `connection` (the client's pooling). */
  headers: [string, string][];
  body: string;
}

export type Reply = { status: number; body?: string } | "hang";

export interface CaptureServer {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  requests: CapturedRequest[];
  close(): Promise<void>;
}

const TRANSPORT_HEADERS = new Set(["host", "connection"]);

function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (!TRANSPORT_HEADERS.has(name.toLowerCase())) out.push([name, raw[i + 1]!]);
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** An HTTP server on 127.0.0.1 that records every request and answers with `reply` ("hang" never answers). */
export async function startCaptureServer(
  reply: (req: CapturedRequest) => Reply = () => ({ status: 200, body: "ok" }),
): Promise<CaptureServer> {
  const requests: CapturedRequest[] = [];
  const server = createServer(async (req, res) => {
    const captured: CapturedRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      headers: pairs(req.rawHeaders),
      body: await readBody(req),
    };
    requests.push(captured);
    const answer = reply(captured);
    if (answer === "hang") return;
    res.writeHead(answer.status, { "content-type": "text/plain; charset=utf-8" }).end(answer.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The request a test expects to capture: always a POST, `headers` in wire order followed by the
 * content-length of `body` (a string, or an object compared as its JSON text, so key order counts).
 */
export function expectedRequest(path: string, headers: [string, string][], body: string | object): CapturedRequest {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return { method: "POST", path, headers: [...headers, ["content-length", String(Buffer.byteLength(text))]], body: text };
}

/** A URL nothing listens on: bind a port, then release it. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export interface CapturedMail {
  from: string;
  to: string[];
  /** The DATA section exactly as received, CRLF line endings. */
  raw: string;
}

export interface SmtpCaptureServer {
  /** e.g. smtp://127.0.0.1:40123 */
  url: string;
  mails: CapturedMail[];
  close(): Promise<void>;
}

/** A plain-text SMTP server on 127.0.0.1; `reject` answers DATA with that SMTP reply code instead of 250. */
export async function startSmtpServer(reject?: { code: number; message: string }): Promise<SmtpCaptureServer> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (reject) return callback(Object.assign(new Error(reject.message), { responseCode: reject.code }));
        const from = session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address;
        mails.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Env for tests: every provider base URL points at `base`, every credential is a recognisable fake. */
export function testEnv(base: string, overrides: Record<string, string> = {}): NotifierEnv {
  return NotifierEnv.parse({
    DASHBOARD_URL: "https://vigil.example.com",
    TELEGRAM_API_URL: base,
    TELEGRAM_BOT_TOKEN: "123456:TEST-TOKEN",
    TWILIO_API_URL: base,
    TWILIO_ACCOUNT_SID: "AC00000000000000000000000000000001",
    TWILIO_AUTH_TOKEN: "twilio-secret",
    TWILIO_FROM: "+15005550006",
    TWILIO_WHATSAPP_FROM: "+14155238886",
    OPSGENIE_API_URL: base,
    OPSGENIE_EU_API_URL: `${base}/eu`,
    PAGERDUTY_EVENTS_URL: base,
    NTFY_URL: base,
    EMAIL_PROVIDER_API_URL: base,
    EMAIL_PROVIDER_API_KEY: "re_test_key",
    EMAIL_FROM: "Vigil <alerts@vigil.example.com>",
    ...overrides,
  });
}

/** Sending time used by tests: 2024-05-01T12:00:30Z. */
export const TEST_NOW = Date.UTC(2024, 4, 1, 12, 0, 30);

const monitor = { id: 42, name: "API health", url: "https://api.example.com/health" };
const slot = Date.UTC(2024, 4, 1, 12, 0, 0);

/** One event of each type, with the optional fields a real one of that type carries. */
export const TEST_EVENTS = {
  error: { type: "error", monitor, cronTimestamp: slot, statusCode: 503, latency: 1532.4, errorMessage: "expected status 200, got 503" },
  degraded: { type: "degraded", monitor, cronTimestamp: slot, statusCode: 200, latency: 2450 },
  recovered: { type: "recovered", monitor, cronTimestamp: slot, statusCode: 200, latency: 87 },
  test: { type: "test", monitor, cronTimestamp: slot },
} satisfies Record<NotificationEvent["type"], NotificationEvent>;

export type TestEventType = keyof typeof TEST_EVENTS;

/** A recovery's webhook body, key for key: status code 200, the latency, and never an error message. */
export const recoveryWebhookBody = (monitor: { id: number; name: string; url: string }, cronTimestamp: number, latency: number) => ({
  monitor,
  cronTimestamp,
  status: "recovered",
  statusCode: 200,
  latency,
});

/** The plain-text message (title, facts, dashboard link) a channel is expected to render for each of TEST_EVENTS. */
export const TEST_TEXT: Record<TestEventType, string> = {
  error:
    "API health is down\nStatus: error\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 503\nLatency: 1532 ms\nError: expected status 200, got 503\nOpen in Vigil: https://vigil.example.com/monitors/42",
  degraded:
    "API health is degraded\nStatus: degraded\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 200\nLatency: 2450 ms\nOpen in Vigil: https://vigil.example.com/monitors/42",
  recovered:
    "API health has recovered\nStatus: recovered\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 200\nLatency: 87 ms\nOpen in Vigil: https://vigil.example.com/monitors/42",
  test: "Test notification for API health\nStatus: test\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nOpen in Vigil: https://vigil.example.com/monitors/42",
};

/** One row of a channel's table: the event delivered, the test's name, and the exact request it must produce. */
export interface ChannelCase {
  event: TestEventType;
  name: string;
  expected: CapturedRequest;
}

/** `it.each` rows titled by each case's name, for a `"%s"` title (a `"$name"` title comes out quoted and cut at 40 characters). */
export const byName = (cases: ChannelCase[]) => cases.map((row): [string, ChannelCase] => [row.name, row]);

export interface ChannelServer {
  /** The capture server's base URL (valid once the file's tests run). */
  readonly url: string;
  readonly requests: CapturedRequest[];
  /** Notifies the channel of TEST_EVENTS[type] at TEST_NOW, requires a delivery with the reply's status, returns the request captured. */
  deliver(type: TestEventType): Promise<CapturedRequest | undefined>;
}

/**
 * A capture server for one channel test file (started before its tests, closed after) answering `reply`;
 * `channel` builds the channel under test from the server's URL.
 */
export function channelServer(
  reply: { status: number; body: string },
  channel: (url: string) => { kind: string; config: unknown },
): ChannelServer {
  let server: CaptureServer | undefined;
  beforeAll(async () => {
    server = await startCaptureServer(() => reply);
  });
  afterAll(() => server?.close());
  const started = () => {
    if (!server) throw new Error("the capture server starts before the file's tests");
    return server;
  };
  return {
    get url() {
      return started().url;
    },
    get requests() {
      return started().requests;
    },
    async deliver(type) {
      const { url, requests } = started();
      const result = await notify(channel(url), TEST_EVENTS[type], testEnv(url), { now: TEST_NOW });
      expect(result).toEqual({ ok: true, status: reply.status });
      return requests.at(-1);
    },
  };
}

/** The Twilio Messages request (SMS and WhatsApp) with testEnv's account and credentials and the form `body`. */
export const expectedTwilioMessage = (body: string) =>
  expectedRequest(
    "/2010-04-01/Accounts/AC00000000000000000000000000000001/Messages.json",
    [
      ["authorization", "Basic QUMwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMTp0d2lsaW8tc2VjcmV0"],
      ["content-type", "application/x-www-form-urlencoded"],
    ],
    body,
  );
