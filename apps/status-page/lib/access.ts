import { verifyPageAccess } from "@vigil/core";
import { cookies } from "next/headers";
import { getEnv } from "./env";

export const ACCESS_TTL_MS = 7 * 86_400_000;
export const accessCookieName = (pageId: number) => `vigil_page_${pageId}`;

/** True when the page has no password or the visitor holds a valid signed cookie for it. */
export async function hasAccess(page: { id: number; passwordHash: string | null }): Promise<boolean> {
  if (!page.passwordHash) return true;
  const jar = await cookies();
  return verifyPageAccess(getEnv().AUTH_SECRET, page, jar.get(accessCookieName(page.id))?.value);
}

/**
 * Slows password guessing: per visitor address and page, 5 failures in 15 minutes lock further tries
 * until the window has passed; every page also has a ceiling across all addresses.
 */
const WINDOW_MS = 15 * 60_000;
const PER_VISITOR = 5;
const PER_PAGE = 100;
const failures = new Map<string, number[]>();

function recent(key: string, now: number): number[] {
  const list = (failures.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
  if (list.length === 0) failures.delete(key);
  else failures.set(key, list);
  return list;
}

/** Milliseconds until this visitor may try again; 0 = may try now. */
export function lockedFor(pageId: number, visitor: string, now = Date.now()): number {
  const mine = recent(`${pageId}:${visitor}`, now);
  const all = recent(`${pageId}:*`, now);
  const over = mine.length >= PER_VISITOR ? mine : all.length >= PER_PAGE ? all : null;
  return over ? WINDOW_MS - (now - over[0]!) : 0;
}

export function recordFailure(pageId: number, visitor: string, now = Date.now()) {
  if (failures.size > 50_000) failures.clear();
  for (const key of [`${pageId}:${visitor}`, `${pageId}:*`]) failures.set(key, [...recent(key, now), now]);
}

export function visitorOf(h: Headers): string {
  return h.get("x-forwarded-for")?.split(",")[0]?.trim() || h.get("x-real-ip") || "direct";
}
