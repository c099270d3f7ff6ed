// Values and types shared by the status-page editor's forms.

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

export interface PageFormValues {
  id: number;
  slug: string;
  title: string;
  description: string;
  logoUrl: string | null;
  links: { label: string; url: string }[];
  theme: string;
  language: string;
  customDomain: string | null;
  passwordProtected: boolean;
  whiteLabel: boolean;
  allowIndex: boolean;
  published: boolean;
}

export interface Choice {
  id: number;
  name: string;
}
