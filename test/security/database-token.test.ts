// Issue 26's root finding: sqld had no auth, so anything that could reach its port (a member's check, any
// local process) ran SQL on the whole instance. Replayed on a real sqld started as the deployments start it:
// without the token, with a token signed by another key, or with an unsigned one, nothing runs.
import { generateKeyPairSync, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import { workspace } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase({ auth: true });
  await t.db.insert(workspace).values({ name: "Tenant" });
});
afterAll(() => t?.close());

const b64url = (v: string | Buffer) => Buffer.from(v).toString("base64url");
const ATTACK = { statements: ["UPDATE workspace SET name = 'pwned'", "SELECT name FROM workspace"] };

const post = (authorization?: string) =>
  fetch(`${t.url}/`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(ATTACK),
  });

/** The real token's claims, signed by a key the attacker made, or not signed at all. */
function forged(alg: "EdDSA" | "none"): string {
  const real = readFileSync(t.keys!.tokenFile, "utf8").trim();
  const payload = real.split(".")[1]!;
  const head = `${b64url(JSON.stringify({ alg, typ: "JWT" }))}.${payload}`;
  if (alg === "none") return `${head}.`;
  const { privateKey } = generateKeyPairSync("ed25519");
  return `${head}.${b64url(sign(null, Buffer.from(head), privateKey))}`;
}

const names = async () => (await t.db.select({ name: workspace.name }).from(workspace)).map((w) => w.name);

describe("SQL posted to the database without its token runs nothing", () => {
  it.each([
    ["no token", () => undefined],
    ["a token signed by another key", () => `Bearer ${forged("EdDSA")}`],
    ["an unsigned token", () => `Bearer ${forged("none")}`],
    ["garbage", () => "Bearer vigil"],
  ])("with %s the statements are refused, no row changes and no data comes back", async (_what, authorization) => {
    const res = await post(authorization());
    const text = await res.text();
    expect(res.status, text).toBe(401);
    expect(text).not.toContain("Tenant");
    expect(await names()).toEqual(["Tenant"]);
  });

  it("the services' own token still runs statements (the operator's POST / keeps working)", async () => {
    const token = readFileSync(t.keys!.tokenFile, "utf8").trim();
    const res = await fetch(`${t.url}/`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ statements: ["SELECT name FROM workspace"] }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Tenant");
  });
});
