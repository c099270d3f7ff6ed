// The probe for embedding (benchmarks, tests); `./main` runs it as a process.
export { ProbeEnv } from "./env";
export { Probe, type ProbeConfig, type ProbeStatus } from "./probe";
export { startProbe } from "./start";
