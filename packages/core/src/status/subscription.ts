// What subscribing by mail and by endpoint share: the page a visitor may follow, the confirmation window
// and the record of one message to one subscriber.
import { type Db, statusPage, workspace } from "@vigil/db-schema";
import { assertWithinLimits } from "@vigil/limits";
import { eq } from "drizzle-orm";
import { limitsOf } from "../access";
import { NotFoundError } from "../errors";
import type { Locale } from "../i18n";

/** How long a confirmation link works. */
export const CONFIRM_TOKEN_TTL_MS = 48 * 3_600_000;

/**
 * The page a visitor may follow: published, its password proved when it has one (`access.passwordHash`
 * is the hash the visitor's cookie was signed for), subscribers allowed by its workspace's plan.
 */
export async function subscribablePage(db: Db, pageId: number, access: { passwordHash: string | null } | undefined, nowMs: number) {
  const [row] = await db
    .select({ page: statusPage, ws: workspace })
    .from(statusPage)
    .innerJoin(workspace, eq(workspace.id, statusPage.workspaceId))
    .where(eq(statusPage.id, pageId));
  if (!row?.page.published) throw new NotFoundError("status page", pageId);
  if (row.page.passwordHash !== null && access?.passwordHash !== row.page.passwordHash) throw new NotFoundError("status page", pageId);
  assertWithinLimits(limitsOf(row.ws, nowMs).limits, [{ kind: "feature", key: "status-subscribers" }]);
  return row.page;
}

export interface SubscriberMail {
  subscriberId: number;
  /** "email": mailed to `email`; "webhook" / "slack": posted to `url`. */
  channel: "email" | "webhook" | "slack";
  email: string;
  url: string | null;
  /** The webhook's signing key. */
  secret: string | null;
  unsubscribeToken: string;
  kind: "report_update" | "maintenance";
  refId: number;
  page: { id: number; slug: string; title: string };
  /** The subscriber's language, else the page's. */
  language: Locale;
  /** Report update: the report's title, the update's state and message. Maintenance: its title and window. */
  title: string;
  status: string | null;
  message: string;
  reportId: number | null;
  startsAt: number | null;
  endsAt: number | null;
  /** Attempts already made (0 for a new mail). */
  attempts: number;
}
