// Paths and ports of the embedded local run, shared by the start and setup scripts.
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DATA_DIR = process.env.VIGIL_DATA_DIR || `${ROOT}.data`;
export const LOCAL_STATE = `${DATA_DIR}/local.json`;
/** The database's JWT keys and the services' token live beside the data (ensureDbKeys from @vigil/sqld). */
export const DB_KEYS_DIR = DATA_DIR;

const port = (name: string, fallback: number) => {
  const v = process.env[name];
  return v && /^\d{1,5}$/.test(v) ? Number(v) : fallback;
};
/** The spec's ports; each can be moved (VIGIL_<SERVICE>_PORT) so a second run or the tests fit beside one. */
export const PORTS = {
  db: port("VIGIL_DB_PORT", 8080),
  // Replication only, and sqld does not check the token there: listened on only when asked for.
  dbGrpc: process.env.VIGIL_DB_GRPC_PORT ? port("VIGIL_DB_GRPC_PORT", 5001) : undefined,
  workflows: port("VIGIL_WORKFLOWS_PORT", 3000),
  server: port("VIGIL_SERVER_PORT", 3001),
  dashboard: port("VIGIL_DASHBOARD_PORT", 3002),
  statusPage: port("VIGIL_STATUS_PAGE_PORT", 3003),
  probe: port("VIGIL_PROBE_PORT", 8081),
};
export const DATABASE_URL = `http://127.0.0.1:${PORTS.db}`;
export const SERVER_URL = `http://127.0.0.1:${PORTS.server}`;
export const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";

export interface LocalState {
  workspaceId: number;
  locationId: number;
  serviceKey: string;
  apiKey: string;
}
