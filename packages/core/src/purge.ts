import { type Db, pageSubscriber, session, verificationToken } from "@vigil/db-schema";
import { and, eq, isNull, lte } from "drizzle-orm";

export interface Purged {
  verificationTokens: number;
  sessions: number;
  subscribers: number;
}

/**
 * Deletes what only piles up: sign-in links and sessions past their expiry, and subscribers who never
 * confirmed within the 48 h their link worked (an unsubscribed one stays: it records the choice).
 * Run by the workflows' housekeeping, and by the dashboard on each sign-in (the lite deployment has no workflows).
 */
export async function purgeExpired(db: Db, nowMs = Date.now()): Promise<Purged> {
  const [tokens, sessions, subscribers] = await db.batch([
    db
      .delete(verificationToken)
      .where(lte(verificationToken.expires, new Date(nowMs)))
      .returning({ id: verificationToken.identifier }),
    db
      .delete(session)
      .where(lte(session.expires, new Date(nowMs)))
      .returning({ id: session.userId }),
    db
      .delete(pageSubscriber)
      .where(and(isNull(pageSubscriber.confirmedAt), isNull(pageSubscriber.unsubscribedAt), lte(pageSubscriber.tokenExpiresAt, nowMs)))
      .returning({ id: pageSubscriber.id }),
  ]);
  return { verificationTokens: tokens.length, sessions: sessions.length, subscribers: subscribers.length };
}

/** A new sign-in link for `identifier` replaces its earlier ones: one row per address, one working link. */
export async function forgetSignInLinks(db: Db, identifier: string): Promise<void> {
  await db.delete(verificationToken).where(eq(verificationToken.identifier, identifier));
}
