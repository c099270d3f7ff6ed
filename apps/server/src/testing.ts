import { randomBytes } from "node:crypto";
import { parseEnv } from "@vigil/config";
import { createApiKey, createWorkspace, setLimits } from "@vigil/core";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";

export { metricsHeaders } from "@vigil/testing";

import { ServerEnv } from "./env";
import { startServer } from "./server";

export interface TestServer {
  url: string;
  database: TestDatabase;
  workspaceId: number;
  apiKey: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read responses ad hoc
  call(method: string, path: string, body?: unknown, token?: string | null): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/** The server in-process on a loopback port, with a real sqld, a unique queue prefix and an unlimited workspace. */
export async function startTestServer(env: Record<string, string> = {}, existing?: TestDatabase): Promise<TestServer> {
  const database = existing ?? (await startTestDatabase());
  const server = await startServer(
    // As a service reads its environment (parseEnv): a variable given as "" is unset.
    parseEnv(ServerEnv, {
      DATABASE_URL: database.url,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      QUEUE_PREFIX: `t-${randomBytes(4).toString("hex")}`,
      PROBE_WAIT_MS: "2000",
      VIGIL_METRICS_TOKEN: process.env.VIGIL_METRICS_TOKEN,
      ...env,
    }),
    { handleSignals: false },
  );
  const ws = await createWorkspace(database.db, { name: "Test" }, "operator");
  await setLimits(database.db, ws.id, "unlimited", "operator");
  const { key } = await createApiKey(database.db, ws.id, { name: "test" }, "operator");
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    database,
    workspaceId: ws.id,
    apiKey: key,
    async call(method, path, body, token = key) {
      const headers: Record<string, string> = {};
      if (token) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(`${url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {}
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async close() {
      await server.close();
      if (!existing) await database.close();
    },
  };
}

/** A private location in fra (named `locationName`) and an hourly http monitor keyed "api" checked from it, made through the API. */
export async function hourlyApiMonitor(s: TestServer, locationName: string) {
  const location = (await s.call("POST", "/v1/private-locations", { name: locationName, region: "fra" })).body;
  const monitor = (
    await s.call("POST", "/v1/monitors", {
      key: "api",
      name: "API",
      kind: "http",
      frequency: "1h",
      regions: ["fra"],
      request: { url: "http://127.0.0.1:9/" },
    })
  ).body;
  return { location, monitor };
}
