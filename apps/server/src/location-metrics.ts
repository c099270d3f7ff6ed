import { type Db, privateLocation } from "@vigil/db-schema";
import { isNull } from "drizzle-orm";
import { Counter, type Registry } from "prom-client";

/**
 * `vigil_location_slots_missed_total`: slots no probe of a location ran, read from the database at each scrape,
 * so the count survives probe and server restarts and every server of an install reports the same figure.
 * Labelled by ids, not names: this endpoint answers without a key, and names are the workspaces' own.
 */
export function locationSlotsMissed(db: Db, registry: Registry): Counter<"location" | "workspace_id"> {
  return new Counter({
    name: "vigil_location_slots_missed_total",
    help: "Slots of a private location's monitors that no probe ran (a gap between results, or all its probes silent); location is its id",
    labelNames: ["location", "workspace_id"] as const,
    registers: [registry],
    async collect() {
      let rows: { id: number; workspaceId: number; n: number }[];
      try {
        rows = await db
          .select({
            id: privateLocation.id,
            workspaceId: privateLocation.workspaceId,
            n: privateLocation.slotsMissed,
          })
          .from(privateLocation)
          .where(isNull(privateLocation.deletedAt));
      } catch {
        return; // the database is away: the last figures stand, and the rest of the scrape is answered
      }
      this.reset();
      for (const r of rows) this.inc({ location: String(r.id), workspace_id: String(r.workspaceId) }, r.n);
    },
  });
}
