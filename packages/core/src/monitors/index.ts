// Monitors by purpose: row ↔ API mapping, validation, CRUD, the apply planner, what probes sync, ingest of their results, on-demand runs and the dashboard's read models.
export type { MonitorInputRaw } from "@vigil/api-contract";
export { type ApplyPlan, applyMonitors } from "./apply";
export { createMonitor, createMonitors, deleteMonitor, getMonitor, listMonitors, updateMonitor } from "./crud";
export * from "./ingest";
export { type LocationCoverage, monitorHealth, toInput, toMonitor } from "./mapping";
export { monitorsEtag, monitorsForLocation, type ProbeMonitor } from "./probe-sync";
export * from "./runs";
export * from "./series";
export * from "./views";
