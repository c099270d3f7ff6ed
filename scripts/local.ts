// Paths and ports of the embedded local run, shared by the start and setup scripts.
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DATA_DIR = process.env.VIGIL_DATA_DIR || `${ROOT}.data`;
export const LOCAL_STATE = `${DATA_DIR}/local.json`;
/** The database's JWT keys and the services' token live beside the data (ensureDbKeys from @vigil/sqld). */
export const DB_KEYS_DIR = DATA_DIR;

const whole = (name: string, fallback: number) => {
  const v = process.env[name];
  return v && /^\d{1,5}$/.test(v) ? Number(v) : fallback;
};
/** The spec's ports; each can be moved (VIGIL_<SERVICE>_PORT) so a second run or the tests fit beside one. */
export const PORTS = {
  db: whole("VIGIL_DB_PORT", 8080),
  // Replication only, and sqld does not check the token there: listened on only when asked for.
  dbGrpc: process.env.VIGIL_DB_GRPC_PORT ? whole("VIGIL_DB_GRPC_PORT", 5001) : undefined,
  workflows: whole("VIGIL_WORKFLOWS_PORT", 3000),
  server: whole("VIGIL_SERVER_PORT", 3001),
  dashboard: whole("VIGIL_DASHBOARD_PORT", 3002),
  statusPage: whole("VIGIL_STATUS_PAGE_PORT", 3003),
  probe: whole("VIGIL_PROBE_PORT", 8081),
};
/**
 * The dashboard and status page start on the first request to their port and stop after this long without
 * one (scripts/on-demand.ts); VIGIL_WEB_IDLE_S=0 runs them from the start and never stops them.
 */
export const WEB_IDLE_MS = whole("VIGIL_WEB_IDLE_S", 600) * 1000;
export const DATABASE_URL = `http://127.0.0.1:${PORTS.db}`;
export const SERVER_URL = `http://127.0.0.1:${PORTS.server}`;
/**
 * The addresses Vigil prints and sends (ping URLs, alert and acknowledge links, operator statements), from the
 * moved ports; an operator's own PING_BASE_URL, DASHBOARD_URL, STATUS_PAGE_URL or PUBLIC_DATABASE_URL wins.
 */
export const PUBLIC_URLS = {
  PING_BASE_URL: process.env.PING_BASE_URL || SERVER_URL,
  DASHBOARD_URL: process.env.DASHBOARD_URL || `http://127.0.0.1:${PORTS.dashboard}`,
  STATUS_PAGE_URL: process.env.STATUS_PAGE_URL || `http://127.0.0.1:${PORTS.statusPage}`,
  PUBLIC_DATABASE_URL: process.env.PUBLIC_DATABASE_URL || DATABASE_URL,
};
export const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";

export interface LocalState {
  workspaceId: number;
  locationId: number;
  serviceKey: string;
  apiKey: string;
}
