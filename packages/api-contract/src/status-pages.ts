// A status page and its components: what the API, the dashboard's forms and core accept, and what the API answers.
import { z } from "zod";
import { httpUrl, id, oneOf, title } from "./status-fields";

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

/** A site allowed to frame the embed view: its origin, scheme and host (and port), nothing after. */
export const EmbedOrigin = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/, "must be an origin such as https://intranet.example.com (scheme and host, no path)");
const embedOrigins = z.array(EmbedOrigin).max(20, "at most 20 origins");

export const PagePassword = z.string().min(8, "must be at least 8 characters").max(200, "must be at most 200 characters");

export const PageLinkInput = z
  .object({
    label: z.string().trim().min(1, "must not be empty").max(40, "must be at most 40 characters"),
    url: httpUrl,
  })
  .strict();

/** Markdown is rendered without raw HTML; the size bound keeps a page light. */
export const Markdown = z.string().trim().min(1, "must not be empty").max(10_000, "must be at most 10000 characters");

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
    /** Sites allowed to frame the embed view; empty: any site. */
    embedOrigins: embedOrigins.default([]),
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
    embedOrigins: embedOrigins.optional(),
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
  /** Sites allowed to frame the embed view (`frame-ancestors`); empty: any site. */
  embedOrigins: z.array(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type StatusPage = z.infer<typeof StatusPage>;
/** What a visitor's page shows of the page itself (its header, links, theme, robots), besides the status. */
export const PublicPageMeta = StatusPage.pick({
  id: true,
  slug: true,
  title: true,
  description: true,
  logoUrl: true,
  links: true,
  theme: true,
  language: true,
  customDomain: true,
  whiteLabel: true,
  allowIndex: true,
}).extend({
  /** Subscribing by mail is allowed by the workspace's plan. */
  subscribable: z.boolean(),
});
export type PublicPageMeta = z.infer<typeof PublicPageMeta>;
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

// What the CLI reads of these answers: the fields it prints; the rest passes through untouched for --json.
export const StatusPageSummary = StatusPage.pick({ id: true, slug: true, title: true }).loose();
export const PageComponentSummary = PageComponent.pick({ id: true, name: true }).loose();
export const StatusPageSummaryList = z.object({ statusPages: z.array(StatusPageSummary) });
export const PageComponentSummaryList = z.object({ components: z.array(PageComponentSummary) });
