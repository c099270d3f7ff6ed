import { forgetSignInLinks } from "@vigil/core";
import { type Db, hashToken } from "@vigil/db-schema";
import type { Adapter } from "next-auth/adapters";

/**
 * Stores each session under the SHA-256 of its token while the cookie keeps the token itself: a database
 * read yields no usable session. (Auth.js already stores verification tokens hashed with AUTH_SECRET.)
 */
export function hashedSessions(adapter: Adapter): Adapter {
  const { createSession, getSessionAndUser, updateSession, deleteSession } = adapter;
  if (!createSession || !getSessionAndUser || !updateSession || !deleteSession) throw new Error("the adapter keeps no sessions");
  return {
    ...adapter,
    createSession: async (s) => ({
      ...(await createSession({ ...s, sessionToken: hashToken(s.sessionToken) })),
      sessionToken: s.sessionToken,
    }),
    async getSessionAndUser(token) {
      const found = await getSessionAndUser(hashToken(token));
      // A disabled user has no session, even one made in the instant before it was disabled.
      if (found && ((found.user as { disabledAt?: number | null }).disabledAt ?? null) !== null) return null;
      return found && { ...found, session: { ...found.session, sessionToken: token } };
    },
    async updateSession(s) {
      const updated = await updateSession({ ...s, sessionToken: hashToken(s.sessionToken) });
      return updated && { ...updated, sessionToken: s.sessionToken };
    },
    async deleteSession(token) {
      await deleteSession(hashToken(token));
    },
  };
}

/** A new sign-in link replaces the address's earlier ones: its rows do not pile up, and only the newest link works. */
export function oneLinkPerAddress(adapter: Adapter, db: Db): Adapter {
  const { createVerificationToken } = adapter;
  if (!createVerificationToken) throw new Error("the adapter keeps no sign-in links");
  return {
    ...adapter,
    async createVerificationToken(token) {
      await forgetSignInLinks(db, token.identifier);
      return createVerificationToken(token);
    },
  };
}
