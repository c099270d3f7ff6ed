import { acceptInvitation, bootstrapUser, createApiKey, inviteMember, removeMember, setLimits } from "@vigil/core";
import { user } from "@vigil/db-schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

describe("what a workspace's people and plan allow over the API", () => {
  it("a removed admin's API key is refused at once", async () => {
    const db = s.database.db;
    await db.insert(user).values([
      { id: "u-owner", email: "owner@example.com" },
      { id: "u-admin", email: "admin@example.com" },
    ]);
    const [owned] = await bootstrapUser(db, { id: "u-owner", email: "owner@example.com" });
    const ws = owned!.workspace;
    await setLimits(db, ws.id, "unlimited", "operator");
    const { token } = await inviteMember(db, ws.id, { email: "admin@example.com", role: "admin" }, "user:u-owner");
    await acceptInvitation(db, token, { id: "u-admin", email: "admin@example.com" });
    const { key } = await createApiKey(db, ws.id, { name: "admin's script" }, "user:u-admin");
    expect((await s.call("GET", "/v1/monitors", undefined, key)).status).toBe(200);

    await removeMember(db, ws.id, "u-admin", { userId: "u-owner", role: "owner" });
    const after = await s.call("GET", "/v1/monitors", undefined, key);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("unauthorized");
  });

  it("a member without the audit-log limit gets a clear refusal from the API", async () => {
    await setLimits(s.database.db, s.workspaceId, { "audit-log": false }, "operator");
    const refused = await s.call("GET", "/v1/audit-log");
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({
      code: "limit_exceeded",
      key: "audit-log",
      limit: false,
      attempted: true,
      message: "audit-log: this feature is not enabled for the workspace",
    });
    await setLimits(s.database.db, s.workspaceId, { "audit-log": true }, "operator");
    expect((await s.call("GET", "/v1/audit-log")).status).toBe(200);
  });
});
