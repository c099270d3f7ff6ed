// `vigil admin` as a person runs it: the real CLI process against the real server (sqld behind it).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createAdminToken, createWorkspace, getWorkspace, limitsOf, listAuditLog } from "@vigil/core";
import { startTestServer, type TestServer } from "@vigil/server/testing";
import { serviceBundle } from "@vigil/testing/service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

let s: TestServer;
let token: string;
let restrictedId: number;

function vigil(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [serviceBundle("cli", "vigil"), ...args],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: "/nonexistent",
          VIGIL_CONFIG: "/nonexistent/config.json",
          ...env,
        } as unknown as NodeJS.ProcessEnv,
      },
      (err: Error | null, stdout: string, stderr: string) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  s = await startTestServer();
  token = (await createAdminToken(s.database.db, { name: "cli test" }, "operator")).token;
  restrictedId = (await createWorkspace(s.database.db, { name: "Stranger Co" }, "operator")).id;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const admin = (args: string[]) => vigil(["admin", ...args, "--api-url", s.url, "--token", token]);

describe("vigil admin", () => {
  it("lists every workspace with its state, monitors against the limit (with separators) and plan", async () => {
    const r = await admin(["workspaces"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ID\s+NAME\s+STATE\s+PLAN\s+MONITORS\s+MEMBERS/);
    expect(r.stdout).toMatch(new RegExp(`\\n${s.workspaceId}\\s+Test\\s+active\\s+-\\s+0/1,000,000`));
    expect(r.stdout).toMatch(new RegExp(`\\n${restrictedId}\\s+Stranger Co\\s+restricted\\s+-\\s+0/1\\s`));
  });

  it("lifts a workspace with a preset and keys over it; the workspace's audit log names the token", async () => {
    const r = await admin(["limits", String(restrictedId), "--preset", "team", "--set", "monitors=200", "--set", "periodicity=1m,5m"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/monitors\s+200\n/);
    expect(r.stdout).toMatch(/periodicity\s+1m, 5m\n/);
    expect(limitsOf(await getWorkspace(s.database.db, restrictedId)).limits).toMatchObject({
      monitors: 200,
      periodicity: ["1m", "5m"],
      "private-locations": true,
    });
    const log = await listAuditLog(s.database.db, restrictedId);
    expect(log[0]).toMatchObject({ action: "workspace.limits.update", actor: expect.stringMatching(/^admin-token:\d+$/) });
  });

  it("sets the plan with dates; a passed end date restricts the workspace", async () => {
    const r = await admin(["plan", String(restrictedId), "--plan", "team", "--paid-until", "2099-01-31", "--ends-at", "2020-01-01"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`workspace ${restrictedId}: plan team, paid until 2099-01-31, ends 2020-01-01, ended\n`);
  });

  it("refuses a bad limit by its key and an unknown key before asking the server", async () => {
    const bad = await admin(["limits", String(restrictedId), "--set", "monitors=lots"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/400 invalid_input\): limits: set\.monitors|monitors/);
    const unknown = await admin(["limits", String(restrictedId), "--set", "robots=3"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/"robots" is not a limit key/);
  });

  it("a workspace API key or no token gets the 404 of a route that does not exist", async () => {
    const withKey = await vigil(["admin", "workspaces", "--api-url", s.url, "--token", s.apiKey]);
    expect(withKey.code).toBe(1);
    expect(withKey.stderr).toMatch(/GET \/v1\/admin\/workspaces failed \(404 not_found\): no route GET \/v1\/admin\/workspaces/);
    const res = await s.call("PUT", `/v1/admin/workspaces/${restrictedId}/limits`, { preset: "unlimited" }, null);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: "not_found", message: `no route PUT /v1/admin/workspaces/${restrictedId}/limits` } });
  });

  it("creates a workspace for someone without an account: an invitation token for the owner", async () => {
    const r = await admin(["create-workspace", "--email", "new@example.com", "--preset", "free"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/workspace \d+ created; send new@example.com the link <dashboard>\/invite\/vgl_inv_\S+ \(shown once\)/);
  });
});
