// The subscribe form as a mail cannon: the real status page (next start) on a real sqld, posting as a script would.
import { createStatusPage, RATE_LIMITS } from "@vigil/core";
import type { TestDatabase } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MailApi, type SeededSite, type StatusSite, startSiteWithMail } from "./testing";

let t: TestDatabase;
let site: StatusSite;
let mailApi: MailApi;
let seed: SeededSite["seed"];

beforeAll(async () => {
  ({ t, site, seed, mailApi } = await startSiteWithMail({
    // The site sits behind a proxy on loopback: its X-Forwarded-For names the client.
    TRUSTED_PROXIES: "127.0.0.1",
  }));
}, 600_000);

afterAll(async () => {
  await site?.stop();
  await mailApi?.close();
  await t?.close();
});

const post = (slug: string, email: string, client: string) =>
  fetch(`${site.url}/${slug}/subscribe`, {
    method: "POST",
    headers: { "x-forwarded-for": client },
    body: new URLSearchParams({ email }),
    redirect: "manual",
  });

const mailsTo = (email: string) => mailApi.mails.filter((m) => m.to.includes(email));

describe("subscribing cannot be used to flood an inbox", () => {
  it("subscribing twice mails one token", async () => {
    await createStatusPage(t.db, seed.ws, { slug: "twice", title: "Twice Co" }, "u");
    for (const client of ["198.51.100.1", "198.51.100.2", "198.51.100.3"]) {
      const res = await post("twice", "victim@example.com", client);
      expect(res.status).toBe(303);
      // The same answer each time: the page does not tell whether a link is pending.
      expect(res.headers.get("location")).toBe("/twice?subscribe=sent#subscribe");
    }
    await new Promise((r) => setTimeout(r, 300));
    const mails = mailsTo("victim@example.com");
    expect(mails).toHaveLength(1);
    // The one link mailed still confirms (its page's button posts the token).
    const link = new URL(/Confirm: (\S+)/.exec(mails[0]!.text)![1]!);
    const confirm = await fetch(new URL("/confirm/submit", link), {
      method: "POST",
      body: new URLSearchParams({ token: link.searchParams.get("token")! }),
    });
    expect(await confirm.text()).toContain("You are subscribed");
  });

  it("one client cannot subscribe many addresses, and the page says how long to wait", async () => {
    await createStatusPage(t.db, seed.ws, { slug: "many", title: "Many Co" }, "u");
    const attacker = "203.0.113.66";
    const { limit } = RATE_LIMITS.subscribePerClient;
    for (let i = 0; i < limit; i++) expect((await post("many", `t${i}@example.com`, attacker)).headers.get("location")).toContain("=sent");
    const refused = await post("many", "one-more@example.com", `192.0.2.9, ${attacker}`);
    const location = refused.headers.get("location")!;
    expect(location).toMatch(/^\/many\?subscribe=limited&wait=\d+#subscribe$/);
    expect(mailsTo("one-more@example.com")).toHaveLength(0);
    const shown = await (await fetch(`${site.url}${location}`)).text();
    expect(shown).toMatch(/Too many subscriptions from your network address; try again in \d+ s\./);
    // Another visitor is not held up by it.
    expect((await post("many", "someone@example.com", "203.0.113.67")).headers.get("location")).toContain("=sent");
  });
});
