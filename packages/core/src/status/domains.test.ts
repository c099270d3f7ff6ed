import { createSocket } from "node:dgram";
import { auditLog, statusPage } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { EgressPolicy } from "@vigil/egress";
import { freePort, startDomainHost } from "@vigil/testing";
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createStatusPage,
  createWorkspace,
  type DomainCheckOptions,
  findPublicPage,
  getStatusPage,
  NotFoundError,
  setLimits,
  updateStatusPage,
  ValidationError,
  verifyCustomDomain,
} from "../index";

/**
 * A real DNS server on loopback answering TXT queries from `records` (NXDOMAIN for any other name):
 * enough for the resolver the verifier uses, no more.
 */
async function startTxtDns(records: Map<string, string[]>) {
  const socket = createSocket("udp4");
  socket.on("message", (q, from) => {
    let at = 12;
    const labels: string[] = [];
    while (q[at]! > 0) {
      labels.push(q.toString("latin1", at + 1, at + 1 + q[at]!));
      at += q[at]! + 1;
    }
    const question = q.subarray(12, at + 5);
    const texts = q.readUInt16BE(at + 1) === 16 ? records.get(labels.join(".").toLowerCase()) : undefined;
    const header = Buffer.alloc(12);
    q.copy(header, 0, 0, 2);
    header.writeUInt16BE(texts ? 0x8580 : 0x8583, 2); // response, authoritative; rcode 3 = no such name
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(texts?.length ?? 0, 6);
    const answers = (texts ?? []).map((text) => {
      const rdata = Buffer.concat([Buffer.from([text.length]), Buffer.from(text, "latin1")]);
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      rr.writeUInt16BE(16, 2); // TXT
      rr.writeUInt16BE(1, 4); // IN
      rr.writeUInt32BE(60, 6);
      rr.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([rr, rdata]);
    });
    socket.send(Buffer.concat([header, question, ...answers]), from.port, from.address);
  });
  const port = await freePort();
  await new Promise<void>((r) => socket.bind(port, "127.0.0.1", r));
  return { server: `127.0.0.1:${port}`, close: () => new Promise<void>((r) => socket.close(() => r())) };
}

let t: TestDatabase;
let host: Awaited<ReturnType<typeof startDomainHost>>;
const txt = new Map<string, string[]>();
let dns: Awaited<ReturnType<typeof startTxtDns>>;
let opts: DomainCheckOptions;
let n = 0;

beforeAll(async () => {
  [t, host, dns] = await Promise.all([startTestDatabase(), startDomainHost(), startTxtDns(txt)]);
  // As the server and dashboard build it: the instance's own database is refused.
  opts = {
    egress: await EgressPolicy.forInstance({ DATABASE_URL: t.url }),
    connectTo: host.hostPort,
    dnsServers: [dns.server],
    timeoutMs: 2_000,
  };
});
afterAll(async () => Promise.all([t?.close(), host?.close(), dns?.close()]));

async function workspaceWithPage(customDomain: string | null) {
  const i = ++n;
  const ws = (await createWorkspace(t.db, { name: `w${i}` }, "operator")).id;
  await setLimits(t.db, ws, "unlimited", "operator");
  const page = await createStatusPage(t.db, ws, { slug: `page-${i}`, title: `Page ${i}`, customDomain }, "u");
  return { ws, page };
}

const servedBy = async (domain: string) => (await findPublicPage(t.db, { host: domain }))?.id ?? null;

describe("custom domains are served only once proven", () => {
  it("a domain claimed by another workspace is not served until proven", async () => {
    const squatter = await workspaceWithPage("status.b-corp.test");
    expect(squatter.page.domainVerification).toMatchObject({ state: "pending", verifiedAt: null });
    expect(await servedBy("status.b-corp.test")).toBeNull();

    // The real owner may claim it too, and proves it on their own server.
    const owner = await workspaceWithPage("status.b-corp.test");
    expect(await servedBy("status.b-corp.test")).toBeNull();
    host.serve(owner.page.domainVerification!.token);
    expect((await verifyCustomDomain(t.db, owner.ws, owner.page.id, "u", opts)).state).toBe("verified");
    expect(await servedBy("status.b-corp.test")).toBe(owner.page.id);

    // The squatter's token is nowhere on the domain: their claim stays unproven and unserved.
    const attempt = await verifyCustomDomain(t.db, squatter.ws, squatter.page.id, "u", opts);
    expect(attempt).toMatchObject({ state: "failed", verifiedAt: null });
    expect(await servedBy("status.b-corp.test")).toBe(owner.page.id);
  });

  it("proving a domain by HTTP token verifies it", async () => {
    const { ws, page } = await workspaceWithPage("status.http-proof.test");
    const v = page.domainVerification!;
    expect(v.token).toMatch(/^[0-9a-f]{32}$/);
    expect(v.httpUrl).toBe(`http://status.http-proof.test/.well-known/vigil-domain-verification/${v.token}`);
    host.serve(v.token);
    const before = Date.now();
    const result = await verifyCustomDomain(t.db, ws, page.id, "u", opts);
    expect(result).toMatchObject({ state: "verified", error: null });
    expect(result.verifiedAt).toBeGreaterThanOrEqual(before);
    // The request asked the domain itself for the file, as a browser would.
    expect(host.requests).toContainEqual({ host: "status.http-proof.test", path: `/.well-known/vigil-domain-verification/${v.token}` });
    expect(await servedBy("status.http-proof.test")).toBe(page.id);
    expect((await getStatusPage(t.db, ws, page.id)).domainVerification?.state).toBe("verified");
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, ws), eq(auditLog.action, "status_page.domain.verify")));
    expect(audit).toHaveLength(1);
  });

  it("proving a domain by a DNS TXT record verifies it", async () => {
    const { ws, page } = await workspaceWithPage("status.txt-proof.test");
    const v = page.domainVerification!;
    expect(v).toMatchObject({ txtName: "_vigil.status.txt-proof.test", txtValue: `vigil-domain-verification=${v.token}` });
    txt.set(v.txtName, ["google-site-verification=abc", v.txtValue]);
    expect((await verifyCustomDomain(t.db, ws, page.id, "u", opts)).state).toBe("verified");
    expect(await servedBy("status.txt-proof.test")).toBe(page.id);
  });

  it("a wrong token does not verify", async () => {
    const { ws, page } = await workspaceWithPage("status.wrong-token.test");
    const other = await workspaceWithPage("status.wrong-token.test");
    // Another claim's token, served on the domain and in its DNS, proves that claim only.
    host.serve(other.page.domainVerification!.token);
    txt.set("_vigil.status.wrong-token.test", [other.page.domainVerification!.txtValue]);
    const result = await verifyCustomDomain(t.db, ws, page.id, "u", opts);
    expect(result.state).toBe("failed");
    expect(result.error).toContain("answered HTTP 404");
    expect(result.error).toContain(`do not include vigil-domain-verification=${page.domainVerification!.token}`);
    expect(await servedBy("status.wrong-token.test")).toBeNull();
    const [row] = await t.db.select().from(statusPage).where(eq(statusPage.id, page.id));
    expect(row!.customDomainVerifiedAt).toBeNull();
  });

  it("only one page can hold a verified domain, even under parallel verifications", async () => {
    const claims = await Promise.all([1, 2, 3, 4, 5].map(() => workspaceWithPage("status.contested.test")));
    for (const c of claims) host.serve(c.page.domainVerification!.token);
    await Promise.all(claims.map((c) => verifyCustomDomain(t.db, c.ws, c.page.id, "u", opts)));
    const holders = await t.db
      .select({ id: statusPage.id })
      .from(statusPage)
      .where(and(eq(statusPage.customDomain, "status.contested.test"), isNotNull(statusPage.customDomainVerifiedAt)));
    expect(holders).toHaveLength(1);
    expect(await servedBy("status.contested.test")).toBe(holders[0]!.id);
    // The others say why they lost it.
    const losers = await Promise.all(claims.filter((c) => c.page.id !== holders[0]!.id).map((c) => getStatusPage(t.db, c.ws, c.page.id)));
    for (const l of losers) expect(l.domainVerification?.state).toBe("failed");
    // The database itself refuses a second verified holder.
    await expect(
      t.db.update(statusPage).set({ customDomainVerifiedAt: Date.now() }).where(eq(statusPage.id, losers[0]!.id)),
    ).rejects.toThrow();
  });

  it("changing the domain starts a new unproven claim with a new token", async () => {
    const { ws, page } = await workspaceWithPage("status.first.test");
    host.serve(page.domainVerification!.token);
    await verifyCustomDomain(t.db, ws, page.id, "u", opts);
    const kept = await updateStatusPage(t.db, ws, page.id, { title: "Renamed", customDomain: "status.first.test" }, "u");
    expect(kept.domainVerification?.state).toBe("verified");
    const moved = await updateStatusPage(t.db, ws, page.id, { customDomain: "status.second.test" }, "u");
    expect(moved.domainVerification).toMatchObject({ state: "pending", verifiedAt: null });
    expect(moved.domainVerification!.token).not.toBe(page.domainVerification!.token);
    expect(await servedBy("status.second.test")).toBeNull();
    expect(await servedBy("status.first.test")).toBeNull();
    const cleared = await updateStatusPage(t.db, ws, page.id, { customDomain: null }, "u");
    expect(cleared.domainVerification).toBeNull();
  });

  it("a verification aimed at this instance's database is refused, and nothing is proven", async () => {
    const { ws, page } = await workspaceWithPage("status.inside.test");
    const result = await verifyCustomDomain(t.db, ws, page.id, "u", { ...opts, connectTo: new URL(t.url).host });
    expect(result.state).toBe("failed");
    expect(result.error).toContain("this instance's database; refused");
  });

  it("verifying needs a custom domain on a page of this workspace", async () => {
    const { ws, page } = await workspaceWithPage(null);
    await expect(verifyCustomDomain(t.db, ws, page.id, "u", opts)).rejects.toThrow(ValidationError);
    await expect(verifyCustomDomain(t.db, ws, page.id, "u", opts)).rejects.toThrow(
      "customDomain: this page has no custom domain to verify",
    );
    const other = await workspaceWithPage("status.not-yours.test");
    await expect(verifyCustomDomain(t.db, ws, other.page.id, "u", opts)).rejects.toBeInstanceOf(NotFoundError);
  });
});
