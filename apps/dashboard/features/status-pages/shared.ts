// Values and types shared by the status-page editor's forms.
import type { StatusPage } from "@vigil/api-contract";

export const IMPACTS = [
  ["degraded", "Degraded performance"],
  ["partial_outage", "Partial outage"],
  ["major_outage", "Major outage"],
] as const;
export const REPORT_STATES = [
  ["investigating", "Investigating"],
  ["identified", "Identified"],
  ["monitoring", "Monitoring"],
  ["resolved", "Resolved"],
] as const;
export const COMPONENT_STATES = [["operational", "Operational"], ...IMPACTS] as const;

/** What the page editor shows: the API's page (a new field reaches the form's values with no edit here). */
export type PageFormValues = Omit<StatusPage, "domainVerification" | "createdAt" | "updatedAt">;

export interface Choice {
  id: number;
  name: string;
}
