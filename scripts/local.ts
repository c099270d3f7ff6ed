// Paths and ports of the embedded local run, shared by the start and setup scripts.
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DATA_DIR = process.env.VIGIL_DATA_DIR || `${ROOT}.data`;
export const LOCAL_STATE = `${DATA_DIR}/local.json`;
export const DATABASE_URL = "http://127.0.0.1:8080";
export const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";

export interface LocalState {
  runId: string;
  workspaceId: number;
  locationId: number;
  serviceKey: string;
  apiKey: string;
}
