// First step of the local services: migrate the embedded database and make sure the local workspace, its
// API key and its private location exist; says what a new user needs.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import {
  createApiKey,
  createPrivateLocation,
  createWorkspace,
  listWorkspaces,
  setLimits,
  verifyApiKey,
  verifyLocationKey,
} from "@vigil/core";
import { createDb } from "@vigil/db-schema";
import { migrate } from "@vigil/db-schema/migrate";
import { DB_KEY_FILES, waitForSqld } from "@vigil/sqld";
import { DATABASE_URL, DB_KEYS_DIR, LOCAL_STATE, type LocalState, PUBLIC_URLS, SERVER_URL } from "./local";

/** Returns the local state and the lines to show the operator. */
export async function setupLocal(dbToken?: string): Promise<{ state: LocalState; lines: string[] }> {
  const region = process.env.VIGIL_LOCAL_REGION || "iad";

  await waitForSqld(DATABASE_URL, 30_000);
  const db = createDb(DATABASE_URL, dbToken);
  await migrate(db);

  const previous: Partial<LocalState> = existsSync(LOCAL_STATE) ? JSON.parse(readFileSync(LOCAL_STATE, "utf8")) : {};
  const lines: string[] = [];

  let workspaceId = previous.workspaceId;
  const workspaces = await listWorkspaces(db);
  if (!workspaceId || !workspaces.some((w) => w.id === workspaceId)) {
    if (workspaces.length > 0) workspaceId = workspaces[0]!.id;
    else {
      const ws = await createWorkspace(db, { name: "Local", slug: "local" }, "operator");
      await setLimits(db, ws.id, "unlimited", "operator");
      workspaceId = ws.id;
      lines.push(`Created workspace ${ws.id} "Local" with the UNLIMITED limits preset (local run only; compose starts restricted).`);
    }
  }

  let apiKey = previous.apiKey;
  if (!apiKey || (await verifyApiKey(db, apiKey))?.workspace.id !== workspaceId) {
    apiKey = (await createApiKey(db, workspaceId, { name: "local CLI" }, "operator")).key;
    lines.push("Created an API key for the CLI.");
  }

  let serviceKey = previous.serviceKey;
  let locationId = previous.locationId;
  const loc = serviceKey ? await verifyLocationKey(db, serviceKey) : null;
  if (!loc || loc.workspace.id !== workspaceId) {
    const created = await createPrivateLocation(db, workspaceId, { name: "local", region: region as "iad" }, "operator");
    serviceKey = created.key;
    locationId = created.location.id;
    lines.push(`Created private location ${locationId} "local" (region ${region}) for the local probe.`);
  }

  const state: LocalState = { workspaceId, locationId: locationId!, serviceKey: serviceKey!, apiKey };
  // It holds the API key and the probe's SERVICE_KEY: readable by its owner only (also when it already existed).
  writeFileSync(LOCAL_STATE, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  chmodSync(LOCAL_STATE, 0o600);
  db.$client.close();

  return {
    state,
    lines: [
      ...lines,
      `Database ready at ${DATABASE_URL} (token in ${DB_KEYS_DIR}/${DB_KEY_FILES.token}; pnpm db:sql "<statement>" sends it); workspace ${workspaceId}; local probe location ${locationId}.`,
      `Dashboard ${PUBLIC_URLS.DASHBOARD_URL} (sign in with any e-mail; the link is printed in the [dashboard] log)   Status pages ${PUBLIC_URLS.STATUS_PAGE_URL}   API ${SERVER_URL}`,
      "Next, in another terminal:",
      `  export VIGIL_API_URL=${SERVER_URL} VIGIL_API_TOKEN=${apiKey}`,
      "  pnpm exec vigil create examples/monitors.yaml",
    ],
  };
}
