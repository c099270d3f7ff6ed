// Real processes for the status page's tests and bench: one `next build` per source tree, `next start`
// on a free port against a real sqld, a loopback e-mail API, and data seeded through core.
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createMonitor, evaluateMonitor, recordResults, type StatusPageView, verifyCustomDomain } from "@vigil/core";
import { probeResult, workspaceWithLocations } from "@vigil/core/testing";
import type { Db } from "@vigil/db-schema";
import { freePort, insertResults, type ResultFixture, startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { EgressPolicy } from "@vigil/egress";
import { startDomainHost, startMailApi } from "@vigil/testing";
import { buildNextApp, type NextApp, startNextApp } from "@vigil/testing/next";

export { type Mail as CapturedMail, Proc, startMailApi, until } from "@vigil/testing";

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const APP = join(ROOT, "apps/status-page");

/** `next build` once per source tree; test files and the bench share it. */
export const buildStatusPage = () => buildNextApp("status-page");

export type StatusSite = NextApp;

/** `next start` on a free port (or `port`) with exactly `env` (plus PATH/HOME); resolves once /healthz answers. */
export const startStatusPage = (env: Record<string, string>, port?: number): Promise<StatusSite> =>
  startNextApp("status-page", () => env, port);

/** The sites' AUTH_SECRET in tests. */
export const SITE_SECRET = "test-secret-0123456789abcdef";

export type MailApi = Awaited<ReturnType<typeof startMailApi>>;

export interface SeededSite {
  t: TestDatabase;
  seed: Awaited<ReturnType<typeof seedWorkspace>>;
  site: StatusSite;
  port: number;
  /** What the site was started with. */
  env: Record<string, string>;
}

/**
 * Variables added to a test site's environment; a function is called once the test database has started, which
 * gives this process its VIGIL_SECRET_KEY if it had none.
 */
export type ExtraEnv = Record<string, string> | (() => Record<string, string>);

/**
 * A test database seeded with seedWorkspace and the site started on it (built once per tree), with its
 * database, secret and public URL, then `extraEnv`; a loopback mail API too when `mail`.
 */
async function startSeededSite(mail: boolean, extraEnv: ExtraEnv) {
  const built = buildStatusPage();
  const [t, mailApi] = await Promise.all([startTestDatabase(), mail ? startMailApi() : undefined]);
  try {
    const seed = await seedWorkspace(t.db);
    await built;
    const port = await freePort();
    const env: Record<string, string> = {
      DATABASE_URL: t.url,
      AUTH_SECRET: SITE_SECRET,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...(mailApi
        ? { EMAIL_PROVIDER_API_URL: mailApi.url, EMAIL_PROVIDER_API_KEY: "re_test_key", EMAIL_FROM: "Acme Status <status@acme.test>" }
        : {}),
      ...(typeof extraEnv === "function" ? extraEnv() : extraEnv),
    };
    const site = await startStatusPage(env, port);
    return { t, seed, site, port, env, mailApi };
  } catch (err) {
    await mailApi?.close();
    await t.close();
    throw err;
  }
}

/** The site on a seeded test database, `extraEnv` added to its environment. */
export async function startSite(extraEnv: ExtraEnv = {}): Promise<SeededSite> {
  const { mailApi: _, ...started } = await startSeededSite(false, extraEnv);
  return started;
}

/** As startSite, and the site sends subscriber mail through a loopback mail API. */
export async function startSiteWithMail(extraEnv: ExtraEnv = {}): Promise<SeededSite & { mailApi: MailApi }> {
  const { mailApi, ...started } = await startSeededSite(true, extraEnv);
  return { ...started, mailApi: mailApi! };
}

/** A workspace with unlimited limits and one probe location, as `pnpm start` sets up. */
export async function seedWorkspace(db: Db, name = "Acme") {
  const { ws, locations } = await workspaceWithLocations(db, name, ["iad"]);
  return { ws, location: locations[0]! };
}

export async function newMonitor(db: Db, ws: number, name: string) {
  return createMonitor(
    db,
    ws,
    { name, kind: "tcp", frequency: "1m", regions: ["iad"], request: { host: "127.0.0.1", port: 9 } },
    "operator",
  );
}

/** One check result through core's real ingest, then the real evaluation: the monitor's status moves. */
export async function reportCheck(
  db: Db,
  location: { id: number; workspaceId: number; region: string },
  monitorId: number,
  status: "success" | "error",
  at = Date.now(),
) {
  const cronTimestamp = Math.floor(at / 60_000) * 60_000;
  await recordResults(db, location, {
    results: [
      probeResult(monitorId, cronTimestamp, status, { latencyMs: status === "error" ? 0 : 42, attempts: status === "error" ? 4 : 1 }),
    ],
  });
  return evaluateMonitor(db, monitorId, Date.now());
}

/**
 * `days` days of hourly history per monitor, written straight into the results table (already
 * evaluated), with a bad stretch on the days listed in `badDays` (0 = today).
 */
export async function seedHistory(
  db: Db,
  workspaceId: number,
  locationId: number,
  monitorIds: number[],
  days = 90,
  badDays: Record<number, number[]> = {},
) {
  const HOUR = 3_600_000;
  const now = Date.now();
  const rows: ResultFixture[] = [];
  for (const monitorId of monitorIds) {
    const bad = new Set(badDays[monitorId] ?? []);
    for (let h = days * 24 - 1; h >= 1; h--) {
      const t = Math.floor((now - h * HOUR) / HOUR) * HOUR;
      const daysAgo = Math.floor((Math.floor(now / 86_400_000) * 86_400_000 - Math.floor(t / 86_400_000) * 86_400_000) / 86_400_000);
      const error = bad.has(daysAgo) && h % 24 < 6;
      rows.push({
        workspaceId,
        monitorId,
        locationId,
        region: "iad",
        cronTimestamp: t,
        startedAt: t,
        status: error ? "error" : "success",
        latencyMs: error ? 0 : 40 + (h % 17),
        attempts: 1,
        evaluatedAt: t,
      });
    }
  }
  await insertResults(db, rows);
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTP request as a client on the network sends it: any Host header, and from a chosen loopback
 * address (`from`: 127.0.0.2, 127.0.0.3, … are distinct clients to the site).
 */
export function send(
  siteUrl: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; form?: Record<string, string>; from?: string } = {},
): Promise<RawResponse> {
  const u = new URL(siteUrl);
  const body = opts.form ? new URLSearchParams(opts.form).toString() : undefined;
  const headers = { ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...opts.headers };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: u.hostname, port: u.port, path, method: opts.method ?? (body ? "POST" : "GET"), headers, localAddress: opts.from },
      (res) => {
        let b = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (b += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The owner proves the page's custom domain through the real check, against a loopback server standing in for it. */
export async function proveDomain(db: Db, workspaceId: number, page: StatusPageView) {
  const host = await startDomainHost();
  host.serve(page.domainVerification!.token);
  try {
    return await verifyCustomDomain(db, workspaceId, page.id, "u", { egress: EgressPolicy.none, connectTo: host.hostPort });
  } finally {
    await host.close();
  }
}
