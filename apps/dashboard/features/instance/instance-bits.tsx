import type { WorkspaceState } from "@vigil/core";
import { Badge } from "../../ui/ui";

export function StateBadge({ state }: { state: WorkspaceState }) {
  if (state === "active") return <Badge tone="green">limits set</Badge>;
  if (state === "ended") return <Badge tone="red">plan ended</Badge>;
  return <Badge tone="amber">restricted</Badge>;
}

/** A count as people read it: "1,000,000", and "Unlimited" as it is. */
export const n = (v: number | string) => (typeof v === "number" ? v.toLocaleString("en") : v);
