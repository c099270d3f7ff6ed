import { acceptInvitation, bootstrapUser, changeMemberRole, createApiKey, inviteMember, setLimits, ValidationError } from "@vigil/core";
import { user } from "@vigil/db-schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi";
import { startTestServer, type TestServer } from "./testing";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

const key = async (scopes: ("read" | "write" | "probe-admin")[]) =>
  (await createApiKey(s.database.db, s.workspaceId, { name: scopes.join("+"), scopes }, "operator")).key;

/** Every API-key route of the published API document, with a placeholder id. */
function apiRoutes(): { method: string; path: string }[] {
  const paths = openApiDocument().paths as Record<string, Record<string, { security: Record<string, unknown>[] }>>;
  return Object.entries(paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op.security.some((s) => "apiKey" in s))
      .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{\w+\}/g, "1") })),
  );
}

describe("API key scopes", () => {
  it("a read-only key reads everything but the ping key, and is refused every change with 403 naming the write scope", async () => {
    const read = await key(["read"]);
    const routes = apiRoutes();
    expect(routes.filter((r) => r.method !== "GET").length).toBeGreaterThan(25);
    const monitorsBefore = (await s.call("GET", "/v1/monitors")).body.monitors.length;
    for (const r of routes) {
      const res = await s.call(r.method, r.path, r.method === "GET" ? undefined : {}, read);
      // The ping key can raise or silence alerts: reading it is a write.
      const writeSecret = r.path === "/v1/workspace/ping-key";
      if (r.method === "GET" && !writeSecret) {
        expect(res.status, `${r.method} ${r.path}`).not.toBe(403);
        expect(res.status, `${r.method} ${r.path}`).not.toBe(401);
      } else {
        const needed = r.path.startsWith("/v1/private-locations") ? "probe-admin" : "write";
        expect(res.status, `${r.method} ${r.path}`).toBe(403);
        expect(res.body.error.code).toBe("forbidden");
        expect(res.body.error.missingScope).toBe(needed);
        expect(res.body.error.message).toContain(`lacks the ${needed} scope`);
      }
    }
    // A valid body is refused just the same, and nothing is written.
    const create = await s.call("POST", "/v1/monitors", { kind: "tcp", host: "127.0.0.1", port: 9, regions: ["private"] }, read);
    expect(create.status).toBe(403);
    expect((await s.call("GET", "/v1/monitors")).body.monitors.length).toBe(monitorsBefore);
  });

  it("whoami shows the key's scopes", async () => {
    const me = await s.call("GET", "/v1/whoami", undefined, await key(["read", "write"]));
    expect(me.status).toBe(200);
    expect(me.body.apiKey.scopes).toEqual(["read", "write"]);
    // Keys made before scopes existed (and the default) keep full access.
    expect((await s.call("GET", "/v1/whoami")).body.apiKey.scopes).toEqual(["read", "write", "probe-admin"]);
  });

  it("private locations need probe-admin: a write key cannot mint probe keys, a probe-admin key can", async () => {
    const write = await key(["read", "write"]);
    const refused = await s.call("POST", "/v1/private-locations", { name: "edge", region: "private" }, write);
    expect(refused.status).toBe(403);
    expect(refused.body.error.missingScope).toBe("probe-admin");
    const made = await s.call("POST", "/v1/private-locations", { name: "edge", region: "private" }, await key(["probe-admin"]));
    expect(made.status).toBe(201);
    // …and a probe-admin-only key cannot read monitors.
    const read = await s.call("GET", "/v1/monitors", undefined, await key(["probe-admin"]));
    expect(read.status).toBe(403);
    expect(read.body.error.missingScope).toBe("read");
  });

  it("an unknown or empty scope list is refused naming the field", async () => {
    await expect(createApiKey(s.database.db, s.workspaceId, { name: "x", scopes: [] }, "operator")).rejects.toThrow(ValidationError);
    await expect(createApiKey(s.database.db, s.workspaceId, { name: "x", scopes: ["admin" as "read"] }, "operator")).rejects.toThrow(
      /scopes/,
    );
  });

  it("a viewer's key only reads, and an admin's full key only reads once they are made a viewer", async () => {
    const db = s.database.db;
    await db.insert(user).values([
      { id: "sc-owner", email: "sc-owner@example.com" },
      { id: "sc-admin", email: "sc-admin@example.com" },
    ]);
    const ws = (await bootstrapUser(db, { id: "sc-owner", email: "sc-owner@example.com" }))[0]!.workspace;
    await setLimits(db, ws.id, "unlimited", "operator");
    const { token } = await inviteMember(db, ws.id, { email: "sc-admin@example.com", role: "admin" }, "user:sc-owner");
    await acceptInvitation(db, token, { id: "sc-admin", email: "sc-admin@example.com" });
    const full = (await createApiKey(db, ws.id, { name: "ci" }, "user:sc-admin", "admin")).key;
    expect((await s.call("POST", "/v1/status-pages", { title: "A", slug: "sc-a" }, full)).status).toBe(201);

    await changeMemberRole(db, ws.id, "sc-admin", "viewer", { userId: "sc-owner", role: "owner" });
    const demoted = await s.call("POST", "/v1/status-pages", { title: "B", slug: "sc-b" }, full);
    expect(demoted.status).toBe(403);
    expect(demoted.body.error.missingScope).toBe("write");
    expect((await s.call("GET", "/v1/whoami", undefined, full)).body.apiKey.scopes).toEqual(["read"]);
    expect((await s.call("GET", "/v1/status-pages", undefined, full)).status).toBe(200);

    await expect(createApiKey(db, ws.id, { name: "mine", scopes: ["read", "write"] }, "user:sc-admin", "viewer")).rejects.toThrow(
      /only have the read scope/,
    );
    const readOnly = await createApiKey(db, ws.id, { name: "mine", scopes: ["read"] }, "user:sc-admin", "viewer");
    expect(readOnly.scopes).toEqual(["read"]);
  });
});
