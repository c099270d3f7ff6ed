import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pageSubscriber } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { EgressPolicy } from "@vigil/egress";
import { NotifierEnv } from "@vigil/notifier";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addStatusReportUpdate,
  confirmSubscription,
  createMaintenance,
  createStatusPage,
  createStatusReport,
  createWorkspace,
  listSubscribers,
  purgeExpired,
  SIGNATURE_HEADER,
  sendSubscriberMails,
  setLimits,
  subscribeEndpoint,
  ValidationError,
  verifyEndpointSubscribers,
} from "../index";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A subscriber's endpoint on loopback: records every request byte for byte; `answer` decides the reply. */
async function receiver(answer: (r: Received) => { status: number; body: string }) {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      got.push(r);
      const a = answer(r);
      res.writeHead(a.status, { "content-type": "application/json" }).end(a.body);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, got, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

/** Echoes the verification challenge as the documentation asks. */
const echo = (r: Received) => {
  const body = JSON.parse(r.body.toString("utf8")) as { type: string; challenge?: string };
  return { status: 200, body: body.type === "subscription.verify" ? JSON.stringify({ challenge: body.challenge }) : "{}" };
};

const PUBLIC = "https://status.example.com";
let t: TestDatabase;
let ws: number;
const env = NotifierEnv.parse({});
/** Test receivers listen on loopback: the operator's allow-list (SUBSCRIBER_ALLOW_PRIVATE) lets them through. */
let allowLoopback: EgressPolicy;
/** The default for anonymous subscribers: public addresses only. */
let publicOnly: EgressPolicy;
const verify = (egress = allowLoopback) => verifyEndpointSubscribers(t.db, { publicUrl: PUBLIC, egress });

beforeAll(async () => {
  allowLoopback = await EgressPolicy.create({ publicOnly: { allow: ["127.0.0.0/8"] } });
  publicOnly = await EgressPolicy.create({ publicOnly: { setting: "SUBSCRIBER_ALLOW_PRIVATE" } });
  t = await startTestDatabase();
  ws = (await createWorkspace(t.db, { name: "Hooks" }, "operator")).id;
  await setLimits(t.db, ws, "unlimited", "operator");
});
afterAll(async () => t?.close());

describe("webhook and Slack subscribers", () => {
  it("a webhook subscriber verifies by echoing the challenge, then gets each incident update once, signed byte for byte", async () => {
    const hook = await receiver(echo);
    try {
      const page = await createStatusPage(t.db, ws, { slug: "hooked", title: "Hooked" }, "u");
      const sub = await subscribeEndpoint(t.db, page.id, { channel: "webhook", url: `${hook.url}/status` });
      expect(sub).toMatchObject({ channel: "webhook", state: "pending_verification" });
      expect(sub.secret).toMatch(/^whsec_/);
      // Nothing is posted in the visitor's request: the verification is workflows' job.
      expect(hook.got).toHaveLength(0);
      expect(await verify()).toMatchObject({ verified: 1 });
      expect((await listSubscribers(t.db, ws, page.id))[0]).toMatchObject({ state: "confirmed", verificationError: null });
      // The verification request is signed with the new secret too.
      const challenge = hook.got[0]!;
      expect(challenge.headers[SIGNATURE_HEADER]).toBe(`sha256=${createHmac("sha256", sub.secret!).update(challenge.body).digest("hex")}`);
      // The secret and the URL rest encrypted.
      const raw = await t.db.$client.execute({ sql: "select secret, url from page_subscriber where id = ?", args: [sub.subscriberId] });
      expect(String(raw.rows[0]!.secret)).not.toContain(sub.secret!);
      expect(String(raw.rows[0]!.url)).not.toContain("127.0.0.1");
      const [row] = await t.db.select().from(pageSubscriber).where(eq(pageSubscriber.id, sub.subscriberId));

      const report = await createStatusReport(t.db, ws, { pageId: page.id, title: "Slow checkout", message: "Looking into it." }, "u");
      expect(await sendSubscriberMails(t.db, env, { publicUrl: PUBLIC, egress: allowLoopback })).toMatchObject({ sent: 1, failed: 0 });
      expect(await sendSubscriberMails(t.db, env, { publicUrl: PUBLIC, egress: allowLoopback })).toMatchObject({ sent: 0 });
      expect(hook.got).toHaveLength(2);
      const delivery = hook.got[1]!;
      expect(delivery.path).toBe("/status");
      expect(delivery.headers["content-type"]).toBe("application/json");
      expect(delivery.headers[SIGNATURE_HEADER]).toBe(`sha256=${createHmac("sha256", sub.secret!).update(delivery.body).digest("hex")}`);
      const updateId = JSON.parse(delivery.body.toString("utf8")).id;
      expect(delivery.headers["idempotency-key"]).toBe(updateId);
      expect(delivery.body.toString("utf8")).toBe(
        JSON.stringify({
          id: updateId,
          type: "incident.updated",
          page: { slug: "hooked", title: "Hooked", url: `${PUBLIC}/hooked` },
          incident: {
            id: report.id,
            title: "Slow checkout",
            status: "investigating",
            message: "Looking into it.",
            url: `${PUBLIC}/hooked/reports/${report.id}`,
          },
          maintenance: null,
          unsubscribeUrl: `${PUBLIC}/unsubscribe?token=${encodeURIComponent(row!.unsubscribeToken!)}`,
        }),
      );

      await addStatusReportUpdate(t.db, ws, report.id, { status: "resolved", message: "Fixed." }, "u");
      await createMaintenance(
        t.db,
        ws,
        { pageId: page.id, title: "DB upgrade", startsAt: Date.now() + 3_600_000, endsAt: Date.now() + 7_200_000 },
        "u",
      );
      expect(await sendSubscriberMails(t.db, env, { publicUrl: PUBLIC, egress: allowLoopback })).toMatchObject({ sent: 2, failed: 0 });
      const types = hook.got.slice(2).map((r) => JSON.parse(r.body.toString("utf8")).type);
      expect(types.sort()).toEqual(["incident.updated", "maintenance.scheduled"]);
    } finally {
      await hook.close();
    }
  });

  it("a webhook that fails its delivery is sent the same bytes with the same idempotency key on the next run", async () => {
    let down = false;
    const hook = await receiver((r) => (down && !r.body.includes("subscription.verify") ? { status: 503, body: "busy" } : echo(r)));
    try {
      const page = await createStatusPage(t.db, ws, { slug: "flaky", title: "Flaky" }, "u");
      await subscribeEndpoint(t.db, page.id, { channel: "webhook", url: hook.url });
      await verify();
      down = true;
      await createStatusReport(t.db, ws, { pageId: page.id, title: "Outage", message: "Down." }, "u");
      expect(await sendSubscriberMails(t.db, env, { publicUrl: PUBLIC, egress: allowLoopback })).toMatchObject({ sent: 0, failed: 1 });
      down = false;
      expect(await sendSubscriberMails(t.db, env, { publicUrl: PUBLIC, egress: allowLoopback })).toMatchObject({ sent: 1, failed: 0 });
      const [first, second] = hook.got.slice(1);
      expect(second!.body.equals(first!.body)).toBe(true);
      expect(second!.headers["idempotency-key"]).toBe(first!.headers["idempotency-key"]);
    } finally {
      await hook.close();
    }
  });

  it("a webhook that never echoes the challenge gets nothing and is dropped after 48 hours", async () => {
    const hook = await receiver(() => ({ status: 200, body: "ok" }));
    try {
      const page = await createStatusPage(t.db, ws, { slug: "silent", title: "Silent" }, "u");
      const now = Date.now();
      const sub = await subscribeEndpoint(t.db, page.id, { channel: "webhook", url: hook.url }, { nowMs: now });
      await verify();
      expect((await listSubscribers(t.db, ws, page.id))[0]).toMatchObject({
        state: "pending",
        verificationError: "the endpoint answered without echoing the challenge",
      });
      await createStatusReport(t.db, ws, { pageId: page.id, title: "Outage", message: "Down." }, "u");
      await sendSubscriberMails(t.db, env, { publicUrl: PUBLIC, egress: allowLoopback });
      expect(hook.got).toHaveLength(1);
      await purgeExpired(t.db, now + 48 * 3_600_000 + 1);
      expect(await t.db.select().from(pageSubscriber).where(eq(pageSubscriber.id, sub.subscriberId))).toEqual([]);
    } finally {
      await hook.close();
    }
  });

  it("a Slack channel is posted a confirm link, and once confirmed gets each update as a message", async () => {
    const slack = await receiver(() => ({ status: 200, body: "ok" }));
    try {
      const page = await createStatusPage(t.db, ws, { slug: "slacky", title: "Slacky", language: "de" }, "u");
      const sub = await subscribeEndpoint(
        t.db,
        page.id,
        { channel: "slack", url: `${slack.url}/services/T/B/x` },
        { slackOrigins: [slack.url] },
      );
      expect(sub).toMatchObject({ channel: "slack", secret: null, state: "pending_verification" });
      expect(slack.got).toHaveLength(0);
      expect(await verify()).toMatchObject({ linked: 1 });
      const text = JSON.parse(slack.got[0]!.body.toString("utf8")).text as string;
      expect(text).toContain("Statusmeldungen von Slacky");
      const token = new URL(/<(https:[^>]+)>/.exec(text)![1]!).searchParams.get("token")!;
      expect(await confirmSubscription(t.db, token)).toMatchObject({ outcome: "confirmed" });
      await createStatusReport(t.db, ws, { pageId: page.id, title: "Login down", message: "Wir prüfen es." }, "u");
      expect(await sendSubscriberMails(t.db, env, { publicUrl: PUBLIC, egress: allowLoopback })).toMatchObject({ sent: 1 });
      const message = JSON.parse(slack.got[1]!.body.toString("utf8")) as { text: string };
      expect(message.text).toContain("*[Slacky] Wird untersucht: Login down*");
      expect(message.text).toContain("Wir prüfen es.");
    } finally {
      await slack.close();
    }
  });

  it("a Slack subscriber whose URL is not on Slack's incoming-webhook host is refused naming the url field, and nothing is posted", async () => {
    const elsewhere = await receiver(() => ({ status: 200, body: "ok" }));
    try {
      const page = await createStatusPage(t.db, ws, { slug: "not-slack", title: "Not Slack" }, "u");
      for (const url of [
        `${elsewhere.url}/services/T/B/x`,
        "https://hooks.slack.com.evil.example/services/T/B/x",
        "http://hooks.slack.com/services/T/B/x",
        "https://example.com/hooks.slack.com/services/T/B/x",
      ]) {
        const err = await subscribeEndpoint(t.db, page.id, { channel: "slack", url }).catch((e) => e);
        expect(err, url).toBeInstanceOf(ValidationError);
        expect((err as ValidationError).issues, url).toEqual([
          {
            path: "url",
            message: "must be a Slack incoming-webhook URL starting with https://hooks.slack.com/ or https://hooks.slack-gov.com/",
          },
        ]);
      }
      expect(elsewhere.got).toHaveLength(0);
      expect(await t.db.select().from(pageSubscriber).where(eq(pageSubscriber.pageId, page.id))).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it("a subscriber URL that points at the instance's own services is refused and never reached, even in an allowed range", async () => {
    const inside = await receiver(echo);
    try {
      const egress = await EgressPolicy.create({ instance: [{ name: "redis", url: inside.url }], publicOnly: { allow: ["127.0.0.0/8"] } });
      const page = await createStatusPage(t.db, ws, { slug: "inside", title: "Inside" }, "u");
      const sub = await subscribeEndpoint(t.db, page.id, { channel: "webhook", url: inside.url });
      await verify(egress);
      const [seen] = await listSubscribers(t.db, ws, page.id);
      expect(seen).toMatchObject({ id: sub.subscriberId, state: "pending" });
      expect(seen!.verificationError).toMatch(/is this instance's redis; refused$/);
      expect(inside.got).toHaveLength(0);
    } finally {
      await inside.close();
    }
  });

  it("a subscription to a loopback or private URL answers the visitor as any other, no request reaches the receiver, and the admin sees why", async () => {
    const internal = await receiver(echo);
    try {
      const page = await createStatusPage(t.db, ws, { slug: "scanned", title: "Scanned" }, "u");
      const answers = [];
      for (const url of [`${internal.url}/hook`, "http://10.1.2.3:8080/", "http://[::1]:22/", "http://169.254.169.254/latest"])
        answers.push(await subscribeEndpoint(t.db, page.id, { channel: "webhook", url }));
      // Field for field the same answer: nothing tells an open port from a closed one or a refused range.
      for (const a of answers) expect(Object.keys(a).sort()).toEqual(["channel", "secret", "state", "subscriberId"]);
      expect(new Set(answers.map((a) => a.state))).toEqual(new Set(["pending_verification"]));
      await verify(publicOnly);
      expect(internal.got).toHaveLength(0);
      const seen = await listSubscribers(t.db, ws, page.id);
      expect(seen.map((s) => s.state)).toEqual(["pending", "pending", "pending", "pending"]);
      expect(seen.map((s) => s.verificationError)).toEqual([
        `target 127.0.0.1:${new URL(internal.url).port} is a loopback address (127.0.0.0/8), not a public one (SUBSCRIBER_ALLOW_PRIVATE does not allow it); refused`,
        "target 10.1.2.3:8080 is a private network address (10.0.0.0/8), not a public one (SUBSCRIBER_ALLOW_PRIVATE does not allow it); refused",
        "target [::1]:22 is a loopback address (::1/128), not a public one (SUBSCRIBER_ALLOW_PRIVATE does not allow it); refused",
        "target 169.254.169.254:80 is a link-local address (169.254.0.0/16), not a public one (SUBSCRIBER_ALLOW_PRIVATE does not allow it); refused",
      ]);
      // Verified once: a later run sends nothing more.
      await verify(allowLoopback);
      expect(internal.got).toHaveLength(0);
    } finally {
      await internal.close();
    }
  });

  it("an announcement to an endpoint whose address is no longer allowed is never sent, and the delivery records why", async () => {
    const hook = await receiver(echo);
    try {
      const page = await createStatusPage(t.db, ws, { slug: "moved", title: "Moved" }, "u");
      await subscribeEndpoint(t.db, page.id, { channel: "webhook", url: hook.url });
      await verify(allowLoopback);
      expect(hook.got).toHaveLength(1);
      // The operator drops the allowed range: the verified subscriber's URL is private again.
      await createStatusReport(t.db, ws, { pageId: page.id, title: "Outage", message: "Down." }, "u");
      expect(await sendSubscriberMails(t.db, env, { publicUrl: PUBLIC, egress: publicOnly })).toMatchObject({ sent: 0, failed: 1 });
      expect(hook.got).toHaveLength(1);
      const raw = await t.db.$client.execute({
        sql: "select d.error from subscriber_delivery d join page_subscriber s on s.id = d.subscriber_id where s.page_id = ? and d.kind = 'report_update'",
        args: [page.id],
      });
      expect(String(raw.rows[0]!.error)).toMatch(/is a loopback address \(127\.0\.0\.0\/8\), not a public one/);
    } finally {
      await hook.close();
    }
  });

  it("a bad channel or URL is refused naming the field and rule, and nothing is stored", async () => {
    const page = await createStatusPage(t.db, ws, { slug: "strict", title: "Strict" }, "u");
    const err = await subscribeEndpoint(t.db, page.id, { channel: "fax", url: "ftp://example.com" }).catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues).toEqual([
      { path: "channel", message: "must be one of webhook, slack" },
      { path: "url", message: "must be an http:// or https:// URL" },
    ]);
    expect(await t.db.select().from(pageSubscriber).where(eq(pageSubscriber.pageId, page.id))).toEqual([]);
  });
});
