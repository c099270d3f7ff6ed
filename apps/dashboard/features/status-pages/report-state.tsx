import { Badge } from "../../ui/ui";

const STATE: Record<string, ["red" | "amber" | "indigo" | "green", string]> = {
  investigating: ["red", "Investigating"],
  identified: ["amber", "Identified"],
  monitoring: ["indigo", "Monitoring"],
  resolved: ["green", "Resolved"],
};

/** A report's (or update's) state as a coloured badge. */
export function ReportState({ status }: { status: string }) {
  const [tone, label] = STATE[status] ?? ["zinc" as "green", status];
  return <Badge tone={tone}>{label}</Badge>;
}
