// Status pages: pages, groups, components, reports, maintenance, subscribers and their mail.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { incident } from "./alerts";
import { createdAt, encryptedJson, json, updatedAt } from "./columns";
import { monitor } from "./monitors";
import { workspace } from "./workspace";

export const PAGE_THEMES = ["system", "light", "dark"] as const;
/** The languages a status page is shown in (BCP 47 tags, as `<html lang>` and `?lang=` take them). */
export const PAGE_LANGUAGES = ["en", "de", "fr", "es", "pt-BR", "ja", "zh-CN"] as const;
/** Ways a status page's visitors can follow it. */
export const SUBSCRIBER_CHANNELS = ["email", "webhook", "slack"] as const;
export type PageLink = { label: string; url: string };

export const statusPage = sqliteTable(
  "status_page",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    /** Claimed by the page; served only once verified (several pages may claim one domain, one holds it). */
    customDomain: text("custom_domain"),
    /** What the claimant publishes to prove the domain (HTTP file or TXT record); new with every claim. */
    customDomainToken: text("custom_domain_token"),
    customDomainVerifiedAt: integer("custom_domain_verified_at"),
    /** The last verification attempt and, when it failed, why. */
    customDomainCheckedAt: integer("custom_domain_checked_at"),
    customDomainError: text("custom_domain_error"),
    /** scrypt: `scrypt$<salt hex>$<key hex>`. */
    passwordHash: text("password_hash"),
    published: integer("published", { mode: "boolean" }).notNull().default(true),
    whiteLabel: integer("white_label", { mode: "boolean" }).notNull().default(false),
    logoUrl: text("logo_url"),
    links: json<PageLink[]>("links").notNull().default([]),
    theme: text("theme", { enum: PAGE_THEMES }).notNull().default("system"),
    /** Shown to visitors whose browser asks for none of PAGE_LANGUAGES. */
    language: text("language", { enum: PAGE_LANGUAGES }).notNull().default("en"),
    allowIndex: integer("allow_index", { mode: "boolean" }).notNull().default(true),
    /** Sites allowed to frame the embed view (`https://intranet.example.com`); empty: any site. */
    embedOrigins: json<string[]>("embed_origins").notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("status_page_custom_domain").on(t.customDomain),
    // A domain is served by at most one page: the one whose claim is verified.
    uniqueIndex("status_page_verified_domain").on(t.customDomain).where(sql`${t.customDomainVerifiedAt} is not null`),
  ],
);

export const statusPageGroup = sqliteTable("status_page_group", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  pageId: integer("page_id")
    .notNull()
    .references(() => statusPage.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  order: integer("order").notNull().default(0),
});

/** What a static component says; a monitor-linked one takes its status from the monitor. */
export const COMPONENT_STATUSES = ["operational", "degraded", "partial_outage", "major_outage"] as const;
/** How hard a status report hits one component. */
export const REPORT_IMPACTS = ["degraded", "partial_outage", "major_outage"] as const;

export const statusPageComponent = sqliteTable("status_page_component", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  pageId: integer("page_id")
    .notNull()
    .references(() => statusPage.id, { onDelete: "cascade" }),
  groupId: integer("group_id").references(() => statusPageGroup.id, { onDelete: "set null" }),
  monitorId: integer("monitor_id").references(() => monitor.id, { onDelete: "set null" }),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  order: integer("order").notNull().default(0),
  staticStatus: text("static_status", { enum: COMPONENT_STATUSES }).notNull().default("operational"),
});

export const REPORT_STATUSES = ["investigating", "identified", "monitoring", "resolved"] as const;

export const statusReport = sqliteTable("status_report", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  workspaceId: integer("workspace_id")
    .notNull()
    .references(() => workspace.id, { onDelete: "cascade" }),
  pageId: integer("page_id").references(() => statusPage.id, { onDelete: "cascade" }),
  title: text("title").notNull(),
  status: text("status", { enum: REPORT_STATUSES }).notNull(),
  /** The monitor incident this report was promoted from. */
  incidentId: integer("incident_id").references(() => incident.id, { onDelete: "set null" }),
  resolvedAt: integer("resolved_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const statusReportUpdate = sqliteTable("status_report_update", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  reportId: integer("report_id")
    .notNull()
    .references(() => statusReport.id, { onDelete: "cascade" }),
  status: text("status", { enum: REPORT_STATUSES }).notNull(),
  message: text("message").notNull(),
  date: integer("date").notNull(),
  createdAt: createdAt(),
});

export const statusReportComponent = sqliteTable(
  "status_report_component",
  {
    reportId: integer("report_id")
      .notNull()
      .references(() => statusReport.id, { onDelete: "cascade" }),
    componentId: integer("component_id")
      .notNull()
      .references(() => statusPageComponent.id, { onDelete: "cascade" }),
    impact: text("impact", { enum: REPORT_IMPACTS }).notNull().default("major_outage"),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.componentId] })],
);

export const maintenance = sqliteTable(
  "maintenance",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    pageId: integer("page_id").references(() => statusPage.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    message: text("message").notNull().default(""),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("maintenance_window").on(t.workspaceId, t.startsAt, t.endsAt)],
);

export const maintenanceMonitor = sqliteTable(
  "maintenance_monitor",
  {
    maintenanceId: integer("maintenance_id")
      .notNull()
      .references(() => maintenance.id, { onDelete: "cascade" }),
    monitorId: integer("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.maintenanceId, t.monitorId] })],
);

/** Components (static ones too) a maintenance window covers on its page. */
export const maintenanceComponent = sqliteTable(
  "maintenance_component",
  {
    maintenanceId: integer("maintenance_id")
      .notNull()
      .references(() => maintenance.id, { onDelete: "cascade" }),
    componentId: integer("component_id")
      .notNull()
      .references(() => statusPageComponent.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.maintenanceId, t.componentId] })],
);

export const pageSubscriber = sqliteTable(
  "page_subscriber",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    pageId: integer("page_id")
      .notNull()
      .references(() => statusPage.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    /** SHA-256 of the confirmation token (double opt-in). */
    tokenHash: text("token_hash").notNull().unique(),
    tokenExpiresAt: integer("token_expires_at"),
    /** Put in every mail's unsubscribe link; it can only unsubscribe, so it is kept as is. */
    unsubscribeToken: text("unsubscribe_token").unique(),
    confirmedAt: integer("confirmed_at"),
    unsubscribedAt: integer("unsubscribed_at"),
    /**
     * The page's password hash when this subscriber proved the password (null: never). Mail of a protected
     * page goes only to subscribers whose value is the page's current hash: a new password stops mail to
     * those who knew the old one until they subscribe again with the new one.
     */
    accessPasswordHash: text("access_password_hash"),
    /** The language the visitor saw when subscribing: their mail is written in it (null: the page's). */
    language: text("language", { enum: PAGE_LANGUAGES }),
    /** How updates reach this subscriber: mail to `email`, or a POST to `url` (signed JSON, or a Slack message). */
    channel: text("channel", { enum: SUBSCRIBER_CHANNELS }).notNull().default("email"),
    /** Webhook and Slack subscribers: where updates are posted (their `email` is ""); a Slack URL is its credential. */
    url: encryptedJson<string>("page_subscriber", "url"),
    /** SHA-256 of `url`: one subscription per endpoint and page. */
    urlHash: text("url_hash"),
    /** Webhook subscribers: the HMAC-SHA256 signing key, shown once. */
    secret: encryptedJson<string>("page_subscriber", "secret"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("page_subscriber_email").on(t.pageId, t.email).where(sql`${t.channel} = 'email'`),
    uniqueIndex("page_subscriber_url").on(t.pageId, t.urlHash),
  ],
);

/** "verification": an endpoint subscriber's challenge or confirm link (ref 0), its failure reason kept for admins. */
export const SUBSCRIBER_MAIL_KINDS = ["report_update", "maintenance", "verification"] as const;
export const SUBSCRIBER_MAIL_OUTCOMES = ["pending", "sent", "failed"] as const;

/** One row per (subscriber, report update or maintenance): a mail is never sent twice. */
export const subscriberDelivery = sqliteTable(
  "subscriber_delivery",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    subscriberId: integer("subscriber_id")
      .notNull()
      .references(() => pageSubscriber.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: SUBSCRIBER_MAIL_KINDS }).notNull(),
    refId: integer("ref_id").notNull(),
    outcome: text("outcome", { enum: SUBSCRIBER_MAIL_OUTCOMES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    sentAt: integer("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("subscriber_delivery_once").on(t.subscriberId, t.kind, t.refId), index("subscriber_delivery_outcome").on(t.outcome)],
);
