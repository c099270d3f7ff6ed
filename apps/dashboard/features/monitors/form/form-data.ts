import { FREQUENCIES } from "@vigil/api-contract";
import { limitsOf, listChannels, listEscalationPolicies, listMonitors, listPrivateLocations, type Workspace } from "@vigil/core";
import { getDb } from "../../../lib/db";
import { getEnv } from "../../../lib/env";
import { liftInfo } from "../../../lib/limit-help";
import { regionLabel } from "../../../lib/regions";
import { dependencyValue } from "./draft";
import type { LocationOption } from "./monitor-form";

/** What the monitor form offers: the frequencies and locations the workspace may use, its channels, policies and monitors. */
export async function monitorFormData(ws: Workspace, keepRegions: readonly string[] = []) {
  const { limits } = limitsOf(ws);
  const [locations, channels, policies, monitors] = await Promise.all([
    listPrivateLocations(getDb(), ws.id),
    listChannels(getDb(), ws.id),
    listEscalationPolicies(getDb(), ws.id),
    listMonitors(getDb(), ws.id),
  ]);
  const byRegion = new Map<string, LocationOption>();
  for (const l of locations) {
    const o = byRegion.get(l.region) ?? { region: l.region, label: regionLabel(l.region), locations: [] };
    o.locations.push({ name: l.name, online: l.online });
    byRegion.set(l.region, o);
  }
  // A region the monitor already lists stays choosable even when its probe is gone.
  for (const r of keepRegions) if (!byRegion.has(r)) byRegion.set(r, { region: r, label: regionLabel(r), locations: [] });
  return {
    frequencies: FREQUENCIES.filter((f) => limits.periodicity.includes(f)),
    multiRegion: limits["multi-region"],
    locations: [...byRegion.values()],
    channels: channels.map((c) => ({ name: c.name, kind: c.kind, enabled: c.enabled })),
    policies: policies.map((p) => p.name),
    monitors: monitors.map((x) => ({ id: x.id, value: dependencyValue(x.key ?? x.id), label: x.name || x.key || `#${x.id}` })),
    canTest: !!getEnv().REDIS_URL,
    locationsRefused: locations.length === 0 && !limits["private-locations"] ? await liftInfo(ws, "private-locations") : undefined,
  };
}
