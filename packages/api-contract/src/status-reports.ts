// Status reports (incidents), maintenance windows and subscribing: the bodies, the answers and the list queries.
import { z } from "zod";
import { httpUrl, id, ms, oneOf, title } from "./status-fields";
import { Markdown, REPORT_IMPACT_VALUES, REPORT_STATUS_VALUES } from "./status-pages";

export const AffectedComponent = z
  .object({ componentId: id, impact: z.enum(REPORT_IMPACT_VALUES, { error: oneOf(REPORT_IMPACT_VALUES) }).default("major_outage") })
  .strict();

const reportStatus = z.enum(REPORT_STATUS_VALUES, { error: oneOf(REPORT_STATUS_VALUES) });

export const StatusReportInput = z
  .object({
    pageId: id,
    title,
    status: reportStatus.default("investigating"),
    message: Markdown,
    /** When the first update happened; defaults to now. */
    date: ms.optional(),
    components: z.array(AffectedComponent).max(200).default([]),
  })
  .strict();
export type StatusReportInput = z.input<typeof StatusReportInput>;

export const StatusReportPatch = z.object({ title: title.optional(), components: z.array(AffectedComponent).max(200).optional() }).strict();
export type StatusReportPatch = z.input<typeof StatusReportPatch>;

export const StatusReportUpdateInput = z.object({ status: reportStatus, message: Markdown, date: ms.optional() }).strict();
export type StatusReportUpdateInput = z.input<typeof StatusReportUpdateInput>;

export const PromoteIncidentInput = z
  .object({
    pageId: id,
    title: title.optional(),
    message: Markdown.optional(),
    impact: z.enum(REPORT_IMPACT_VALUES, { error: oneOf(REPORT_IMPACT_VALUES) }).default("major_outage"),
  })
  .strict();
export type PromoteIncidentInput = z.input<typeof PromoteIncidentInput>;

const maintenanceShape = {
  pageId: id.nullable().default(null),
  title,
  message: z.string().trim().max(10_000, "must be at most 10000 characters").default(""),
  startsAt: ms,
  endsAt: ms,
  /** Monitors whose alerts the window holds back (and whose components show maintenance). */
  monitors: z.array(id).max(1000).default([]),
  /** Components (static ones too) shown under maintenance on the page. */
  components: z.array(id).max(1000).default([]),
};
export const MaintenanceInput = z
  .object(maintenanceShape)
  .strict()
  .refine((m) => m.endsAt > m.startsAt, { path: ["endsAt"], message: "must be after startsAt" });
export type MaintenanceInput = z.input<typeof MaintenanceInput>;
/** A change to a window: merged over the stored one, then the whole is checked as a MaintenanceInput. */
export const MaintenancePatch = z
  .object({
    title: z.string().optional(),
    message: z.string().optional(),
    startsAt: z.number().optional(),
    endsAt: z.number().optional(),
    pageId: z.number().nullable().optional(),
    monitors: z.array(z.number()).optional(),
    components: z.array(z.number()).optional(),
  })
  .strict();

export const SubscribeInput = z
  .object({
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(254, "must be at most 254 characters")
      .pipe(z.email({ error: "must be an e-mail address such as you@example.com" })),
  })
  .strict();
export type SubscribeInput = z.input<typeof SubscribeInput>;

/** Following a page by webhook (signed JSON) or a Slack incoming webhook instead of e-mail. */
export const SUBSCRIBER_ENDPOINT_CHANNELS = ["webhook", "slack"] as const;
export const SubscribeEndpointInput = z
  .object({
    channel: z.enum(SUBSCRIBER_ENDPOINT_CHANNELS, { error: oneOf(SUBSCRIBER_ENDPOINT_CHANNELS) }),
    url: httpUrl,
  })
  .strict();
export type SubscribeEndpointInput = z.input<typeof SubscribeEndpointInput>;

export const StatusReportUpdate = z.object({
  id: z.number(),
  reportId: z.number(),
  status: z.string(),
  message: z.string(),
  date: z.number(),
});
export const StatusReport = z.object({
  id: z.number(),
  pageId: z.number(),
  title: z.string(),
  status: z.string(),
  resolvedAt: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
  updates: z.array(StatusReportUpdate).describe("newest first"),
  components: z.array(z.object({ componentId: z.number(), impact: z.string() })),
});
export const StatusReportList = z.object({ statusReports: z.array(StatusReport) });
/** GET /v1/status-reports */
export const StatusReportListQuery = z.object({
  pageId: z.coerce.number().int().positive().optional(),
  open: z
    .enum(["true", "false"], { error: "must be true or false" })
    .optional()
    .transform((v) => v === "true"),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const Maintenance = z.object({
  id: z.number(),
  pageId: z.number().nullable(),
  title: z.string(),
  message: z.string(),
  startsAt: z.number(),
  endsAt: z.number(),
  monitors: z.array(z.number()),
  components: z.array(z.number()),
});
export const MaintenanceList = z.object({ maintenances: z.array(Maintenance) });
/** GET /v1/maintenances */
export const MaintenanceListQuery = z.object({ pageId: z.coerce.number().int().positive().optional() });

// What the CLI reads of a report: the fields it prints; the rest passes through untouched for --json
// (a report's row carries more than the document names).
export const StatusReportSummary = StatusReport.pick({
  id: true,
  pageId: true,
  title: true,
  status: true,
  resolvedAt: true,
  createdAt: true,
})
  .extend({
    updates: z.array(StatusReportUpdate.pick({ status: true, message: true, date: true }).loose()),
    components: z.array(StatusReport.shape.components.element.loose()),
  })
  .loose();
export type StatusReportSummary = z.infer<typeof StatusReportSummary>;
export const StatusReportSummaryList = z.object({ statusReports: z.array(StatusReportSummary) });
