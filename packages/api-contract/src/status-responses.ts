// Status pages, components, reports and maintenance as the API answers them, and their list queries.
import { z } from "zod";
import { PAGE_LANGUAGE_VALUES, PAGE_THEME_VALUES } from "./status-pages";

/** A custom domain is served only once proven: serve `token` at `httpUrl`, or add the TXT record. */
export const DomainVerification = z.object({
  state: z.enum(["pending", "verified", "failed"]),
  token: z.string(),
  /** Serve `token` as the body of this URL (HTTP 200, no redirect)… */
  httpUrl: z.string(),
  /** …or add this TXT record. */
  txtName: z.string(),
  txtValue: z.string(),
  verifiedAt: z.number().nullable(),
  checkedAt: z.number().nullable(),
  /** Why the last check failed. */
  error: z.string().nullable(),
});
export type DomainVerification = z.infer<typeof DomainVerification>;

/** What a page looks like through the API: `passwordProtected`, never the password or its hash. */
export const StatusPage = z.object({
  id: z.number(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  logoUrl: z.string().nullable(),
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  theme: z.enum(PAGE_THEME_VALUES),
  /** The language visitors see unless their browser or `?lang=` asks for another. */
  language: z.enum(PAGE_LANGUAGE_VALUES),
  customDomain: z.string().nullable(),
  /** How to prove the custom domain and whether it is proven; null without one. Only a proven domain is served. */
  domainVerification: DomainVerification.nullable(),
  passwordProtected: z.boolean(),
  whiteLabel: z.boolean(),
  allowIndex: z.boolean(),
  published: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type StatusPage = z.infer<typeof StatusPage>;
export const StatusPageList = z.object({ statusPages: z.array(StatusPage) });

export const ComponentGroup = z.object({ id: z.number(), pageId: z.number(), name: z.string(), order: z.number() });
export const PageComponent = z.object({
  id: z.number(),
  pageId: z.number(),
  groupId: z.number().nullable(),
  monitorId: z.number().nullable(),
  name: z.string(),
  description: z.string(),
  staticStatus: z.string(),
  order: z.number(),
});
export const ComponentList = z.object({ groups: z.array(ComponentGroup), components: z.array(PageComponent) });
/** PUT /v1/status-pages/:id/components/order and …/groups/order */
export const ComponentOrderInput = z.object({ ids: z.array(z.number().int().positive()).max(1000) }).strict();

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

// What the CLI reads of these answers: the fields it prints; the rest passes through untouched for --json
// (a report's row carries more than the document names).
export const StatusPageSummary = StatusPage.pick({ id: true, slug: true, title: true }).loose();
export const PageComponentSummary = PageComponent.pick({ id: true, name: true }).loose();
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
export const StatusPageSummaryList = z.object({ statusPages: z.array(StatusPageSummary) });
export const PageComponentSummaryList = z.object({ components: z.array(PageComponentSummary) });
export const StatusReportSummaryList = z.object({ statusReports: z.array(StatusReportSummary) });
