import { z } from "zod";

/** Status pages, their components, reports, maintenance and subscribers: shared by core, REST API and dashboard. */

export const PAGE_THEME_VALUES = ["system", "light", "dark"] as const;
/** The languages a page can be shown in; the same list as the database's PAGE_LANGUAGES. */
export const PAGE_LANGUAGE_VALUES = ["en", "de", "fr", "es", "pt-BR", "ja", "zh-CN"] as const;
/** Each language by its own name, for pickers. */
export const PAGE_LANGUAGE_NAMES: Record<(typeof PAGE_LANGUAGE_VALUES)[number], string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  "pt-BR": "Português (Brasil)",
  ja: "日本語",
  "zh-CN": "简体中文",
};
export const COMPONENT_STATUS_VALUES = ["operational", "degraded", "partial_outage", "major_outage"] as const;
export const REPORT_IMPACT_VALUES = ["degraded", "partial_outage", "major_outage"] as const;
export const REPORT_STATUS_VALUES = ["investigating", "identified", "monitoring", "resolved"] as const;

/** Paths the status-page app (and the dashboard's links) use themselves; no page may take them. */
export const RESERVED_SLUGS = [
  "admin",
  "api",
  "app",
  "assets",
  "atom",
  "badge",
  "badges",
  "confirm",
  "dashboard",
  "docs",
  "favicon.ico",
  "feed",
  "healthz",
  "help",
  "login",
  "logout",
  "metrics",
  "new",
  "robots.txt",
  "rss",
  "settings",
  "signin",
  "signup",
  "static",
  "status",
  "subscribe",
  "support",
  "unsubscribe",
  "vigil",
  "www",
] as const;

const oneOf = (values: readonly string[]) => `must be one of ${values.join(", ")}`;
const httpUrl = z
  .string()
  .trim()
  .max(2000, "must be at most 2000 characters")
  .regex(/^https?:\/\/[^\s/]+\S*$/, "must be an http:// or https:// URL")
  .pipe(z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }));

export const Slug = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{1,46}[a-z0-9])$/, "must be 3-48 lowercase letters, digits and dashes, not starting or ending with a dash")
  .refine((s) => !(RESERVED_SLUGS as readonly string[]).includes(s), { message: "is reserved; choose another slug" });

export const CustomDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, "must be at most 253 characters")
  .regex(
    /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    "must be a host name such as status.example.com (no scheme, port or path)",
  );

export const PagePassword = z.string().min(8, "must be at least 8 characters").max(200, "must be at most 200 characters");

export const PageLinkInput = z
  .object({
    label: z.string().trim().min(1, "must not be empty").max(40, "must be at most 40 characters"),
    url: httpUrl,
  })
  .strict();

const title = z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters");
/** Markdown is rendered without raw HTML; the size bound keeps a page light. */
export const Markdown = z.string().trim().min(1, "must not be empty").max(10_000, "must be at most 10000 characters");
const id = z.number().int().positive();
const ms = z.number().int("must be a time in ms since epoch").min(0, "must be a time in ms since epoch");

export const StatusPageInput = z
  .object({
    slug: Slug,
    title,
    description: z.string().trim().max(1000, "must be at most 1000 characters").default(""),
    logoUrl: httpUrl.nullable().default(null),
    links: z.array(PageLinkInput).max(10, "at most 10 links").default([]),
    theme: z.enum(PAGE_THEME_VALUES, { error: oneOf(PAGE_THEME_VALUES) }).default("system"),
    /** Shown to visitors whose browser asks for none of these languages. */
    language: z.enum(PAGE_LANGUAGE_VALUES, { error: oneOf(PAGE_LANGUAGE_VALUES) }).default("en"),
    customDomain: CustomDomain.nullable().default(null),
    /** Plain text in; only a scrypt hash is stored. null = no password. */
    password: PagePassword.nullable().default(null),
    whiteLabel: z.boolean().default(false),
    allowIndex: z.boolean().default(true),
    published: z.boolean().default(true),
  })
  .strict();
export type StatusPageInput = z.input<typeof StatusPageInput>;

export const StatusPagePatch = z
  .object({
    slug: Slug.optional(),
    title: title.optional(),
    description: z.string().trim().max(1000, "must be at most 1000 characters").optional(),
    logoUrl: httpUrl.nullable().optional(),
    links: z.array(PageLinkInput).max(10, "at most 10 links").optional(),
    theme: z.enum(PAGE_THEME_VALUES, { error: oneOf(PAGE_THEME_VALUES) }).optional(),
    language: z.enum(PAGE_LANGUAGE_VALUES, { error: oneOf(PAGE_LANGUAGE_VALUES) }).optional(),
    customDomain: CustomDomain.nullable().optional(),
    password: PagePassword.nullable().optional(),
    whiteLabel: z.boolean().optional(),
    allowIndex: z.boolean().optional(),
    published: z.boolean().optional(),
  })
  .strict();
export type StatusPagePatch = z.input<typeof StatusPagePatch>;

export const ComponentGroupInput = z
  .object({
    name: z.string().trim().min(1, "must not be empty").max(80, "must be at most 80 characters"),
    order: z.number().int().optional(),
  })
  .strict();
export type ComponentGroupInput = z.input<typeof ComponentGroupInput>;
export const ComponentGroupPatch = ComponentGroupInput.partial();

export const ComponentInput = z
  .object({
    name: z.string().trim().min(1, "must not be empty").max(80, "must be at most 80 characters"),
    description: z.string().trim().max(500, "must be at most 500 characters").default(""),
    groupId: id.nullable().default(null),
    /** Linked: status and uptime come from this monitor's checks. null = a static component. */
    monitorId: id.nullable().default(null),
    staticStatus: z.enum(COMPONENT_STATUS_VALUES, { error: oneOf(COMPONENT_STATUS_VALUES) }).default("operational"),
    order: z.number().int().optional(),
  })
  .strict();
export type ComponentInput = z.input<typeof ComponentInput>;

export const ComponentPatch = z
  .object({
    name: z.string().trim().min(1, "must not be empty").max(80, "must be at most 80 characters").optional(),
    description: z.string().trim().max(500, "must be at most 500 characters").optional(),
    groupId: id.nullable().optional(),
    monitorId: id.nullable().optional(),
    staticStatus: z.enum(COMPONENT_STATUS_VALUES, { error: oneOf(COMPONENT_STATUS_VALUES) }).optional(),
    order: z.number().int().optional(),
  })
  .strict();
export type ComponentPatch = z.input<typeof ComponentPatch>;

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
