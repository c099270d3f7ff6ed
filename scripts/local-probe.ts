// The local private location: waits for this run's setup, then runs the probe with its key.
import { existsSync, readFileSync } from "node:fs";
import { DATA_DIR, LOCAL_STATE, type LocalState, SERVER_URL } from "./local";

const runId = process.env.VIGIL_RUN_ID;
const deadline = Date.now() + 120_000;
let state: LocalState | undefined;
while (!state) {
  if (existsSync(LOCAL_STATE)) {
    const s = JSON.parse(readFileSync(LOCAL_STATE, "utf8")) as LocalState;
    if (!runId || s.runId === runId) state = s;
  }
  if (!state) {
    if (Date.now() > deadline) {
      console.error("probe: the local setup did not finish within 120 s");
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

process.env.SERVICE_KEY = state.serviceKey;
process.env.SERVICE_INGEST_URL ||= SERVER_URL;
process.env.PROBE_DATA_DIR ||= `${DATA_DIR}/probe`;
await import("@vigil/private-location/main");
