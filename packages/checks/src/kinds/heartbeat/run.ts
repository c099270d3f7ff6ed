import { errorResult } from "../../result";
import type { CheckResult } from "../../schema";

/** "Test now" on a heartbeat: nothing to connect to; its job's pings are the check. */
export async function runHeartbeatCheck(): Promise<CheckResult> {
  return errorResult("a heartbeat is not run by a probe: its job pings the server (see the ping URL)", 0);
}
