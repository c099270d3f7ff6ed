import { loadEnv } from "@vigil/config";
import { ProbeEnv } from "./env";
import { startProbe } from "./start";

await startProbe(loadEnv(ProbeEnv, "private-location"));
