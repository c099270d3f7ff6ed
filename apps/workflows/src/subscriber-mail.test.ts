import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createStatusPage, createStatusReport, createWorkspace, listSubscribers, setLimits, subscribeEndpoint } from "@vigil/core";
import { useTestDatabase } from "@vigil/core/testing";
import type { Db } from "@vigil/db-schema";
import { NotifierEnv } from "@vigil/notifier";
import { createLogger } from "@vigil/service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkflowsEnv } from "./env";
import { runSubscriberMail, subscriberEgress } from "./subscriber-mail";

let db: Db;
useTestDatabase((t) => {
  db = t.db;
});

/** An internal webhook receiver on loopback that echoes the verification challenge; keeps each body's type. */
const received: string[] = [];
let server: Server;
let url = "";
beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const body = JSON.parse(raw) as { type: string; challenge?: string };
      received.push(body.type);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ challenge: body.challenge }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/vigil`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** The workflows process as its environment makes it, with the operator's SUBSCRIBER_ALLOW_PRIVATE. */
async function workflows(allowPrivate: string | undefined) {
  const env = WorkflowsEnv.parse(allowPrivate === undefined ? {} : { SUBSCRIBER_ALLOW_PRIVATE: allowPrivate });
  return {
    db,
    logger: createLogger("workflows", "silent"),
    notifierEnv: NotifierEnv.parse({}),
    subscriberEgress: await subscriberEgress(env),
  };
}

async function pageWithWebhook(slug: string) {
  const ws = (await createWorkspace(db, { name: slug }, "operator")).id;
  await setLimits(db, ws, "unlimited", "operator");
  const page = await createStatusPage(db, ws, { slug, title: slug }, "u");
  const sub = await subscribeEndpoint(db, page.id, { channel: "webhook", url });
  expect(sub.state).toBe("pending_verification");
  return { ws, page };
}

describe("verifying anonymous subscribers' webhooks in workflows", () => {
  it("by default a webhook on loopback is never reached, its announcements are never sent, and the admin sees the refusal", async () => {
    received.length = 0;
    const { ws, page } = await pageWithWebhook("internal-off");
    const ctx = await workflows(undefined);
    await runSubscriberMail(ctx, "https://status.example.com");
    await createStatusReport(db, ws, { pageId: page.id, title: "Outage", message: "Down." }, "u");
    await runSubscriberMail(ctx, "https://status.example.com");
    expect(received).toEqual([]);
    const [seen] = await listSubscribers(db, ws, page.id);
    expect(seen!.state).toBe("pending");
    expect(seen!.verificationError).toMatch(
      /is a loopback address \(127\.0\.0\.0\/8\), not a public one \(SUBSCRIBER_ALLOW_PRIVATE does not allow it\); refused$/,
    );
  });

  it("with SUBSCRIBER_ALLOW_PRIVATE naming loopback, an internal webhook on 127.0.0.1 is verified by the job and gets the page's reports", async () => {
    received.length = 0;
    const { ws, page } = await pageWithWebhook("internal-on");
    const ctx = await workflows("127.0.0.0/8");
    await runSubscriberMail(ctx, "https://status.example.com");
    expect(received).toEqual(["subscription.verify"]);
    expect((await listSubscribers(db, ws, page.id))[0]).toMatchObject({ state: "confirmed", verificationError: null });
    await createStatusReport(db, ws, { pageId: page.id, title: "Outage", message: "Down." }, "u");
    expect(await runSubscriberMail(ctx, "https://status.example.com")).toMatchObject({ sent: 1 });
    expect(received).toEqual(["subscription.verify", "incident.updated"]);
  });

  it("a bad SUBSCRIBER_ALLOW_PRIVATE is refused naming the setting and the rule", () => {
    const parsed = WorkflowsEnv.safeParse({ SUBSCRIBER_ALLOW_PRIVATE: "10.0.0.0/8,intranet" });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]).toMatchObject({
      path: ["SUBSCRIBER_ALLOW_PRIVATE"],
      message: "must be IP addresses or CIDR ranges, comma separated, such as 10.0.0.0/8,fd00::/8",
    });
  });
});
