// Status pages and their components in one file: both share one ownership check, the limits and the audit trail (the public view, reports and subscribers live beside it).
import { createHmac, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { ComponentGroupInput, ComponentInput, ComponentPatch, StatusPageInput, StatusPagePatch } from "@vigil/api-contract";
import { type Conn, type Db, monitor, statusPage, statusPageComponent, statusPageGroup } from "@vigil/db-schema";
import { assertWithinLimits, type LimitCheck } from "@vigil/limits";
import { and, count, eq, isNull, max } from "drizzle-orm";
import { getWorkspace, limitsOf } from "../access";
import { type Actor, audited } from "../audit";
import { ConflictError, NotFoundError, parseInput, ValidationError } from "../errors";
import { type ComponentRow, componentRow, type PageRow, pageRow, type StatusPageView } from "./common";
import { claimColumns, domainVerification } from "./domains";

type GroupRow = typeof statusPageGroup.$inferSelect;

// ── Passwords and the access cookie ──────────────────────────────────────────

const SCRYPT_KEYLEN = 32;
const scryptAsync = (password: string, salt: Buffer) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, SCRYPT_KEYLEN, { N: 16384, r: 8, p: 1 }, (err, key) => (err ? reject(err) : resolve(key))),
  );

/** `scrypt$<salt hex>$<key hex>`: the only form a page password is stored in. */
export async function hashPagePassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString("hex")}$${(await scryptAsync(password, salt)).toString("hex")}`;
}

export async function verifyPagePassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) return false;
  const [scheme, saltHex, keyHex] = stored.split("$");
  if (scheme !== "scrypt" || !saltHex || !keyHex) return false;
  const key = await scryptAsync(password, Buffer.from(saltHex, "hex"));
  const expected = Buffer.from(keyHex, "hex");
  return expected.length === key.length && timingSafeEqual(expected, key);
}

/**
 * The value of a page's access cookie: `<expires ms>.<HMAC>`. The MAC covers the page and its current
 * password hash, so changing the password signs everyone out.
 */
export function signPageAccess(secret: string, page: { id: number; passwordHash: string | null }, expiresAt: number): string {
  const mac = createHmac("sha256", secret)
    .update(`${page.id}.${expiresAt}.${page.passwordHash ?? ""}`)
    .digest("base64url");
  return `${expiresAt}.${mac}`;
}

export function verifyPageAccess(
  secret: string,
  page: { id: number; passwordHash: string | null },
  cookie: string | undefined,
  now = Date.now(),
): boolean {
  if (!cookie || !page.passwordHash) return false;
  const [exp, mac] = cookie.split(".");
  const expiresAt = Number(exp);
  if (!mac || !Number.isSafeInteger(expiresAt) || expiresAt <= now) return false;
  const want = Buffer.from(signPageAccess(secret, page, expiresAt));
  const got = Buffer.from(cookie);
  return want.length === got.length && timingSafeEqual(want, got);
}

// ── Pages ────────────────────────────────────────────────────────────────────

export const toPageView = (r: PageRow): StatusPageView => ({
  id: r.id,
  slug: r.slug,
  title: r.title,
  description: r.description,
  logoUrl: r.logoUrl,
  links: r.links,
  theme: r.theme,
  language: r.language,
  customDomain: r.customDomain,
  domainVerification: domainVerification(r),
  passwordProtected: r.passwordHash !== null,
  whiteLabel: r.whiteLabel,
  allowIndex: r.allowIndex,
  published: r.published,
  embedOrigins: r.embedOrigins,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

function featureChecks(p: { customDomain?: string | null; password?: string | null; whiteLabel?: boolean }): LimitCheck[] {
  const checks: LimitCheck[] = [];
  if (p.customDomain) checks.push({ kind: "feature", key: "custom-domain" });
  if (p.password) checks.push({ kind: "feature", key: "password-protection" });
  if (p.whiteLabel) checks.push({ kind: "feature", key: "white-label" });
  return checks;
}

// A custom domain is not unique here: any page may claim one, only a proven claim is served (domains.ts).
async function assertUniqueSlug(tx: Conn, slug: string | undefined, exceptId?: number) {
  if (slug === undefined) return;
  const [clash] = await tx.select({ id: statusPage.id }).from(statusPage).where(eq(statusPage.slug, slug));
  if (clash && clash.id !== exceptId) throw new ConflictError(`the slug "${slug}" is taken`);
}

export async function createStatusPage(db: Db, workspaceId: number, raw: unknown, actor: Actor): Promise<StatusPageView> {
  const input = parseInput(StatusPageInput, raw, "status page");
  const passwordHash = input.password ? await hashPagePassword(input.password) : null;
  const row = await audited(db, workspaceId, actor, async (tx, audit) => {
    const ws = await getWorkspace(tx, workspaceId);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(statusPage).where(eq(statusPage.workspaceId, workspaceId));
    assertWithinLimits(limitsOf(ws).limits, [{ kind: "count", key: "status-pages", total: n + 1 }, ...featureChecks(input)]);
    await assertUniqueSlug(tx, input.slug);
    const { password: _, ...fields } = input;
    const [created] = await tx
      .insert(statusPage)
      .values({ ...fields, ...claimColumns(input.customDomain), workspaceId, passwordHash })
      .returning();
    await audit({
      action: "status_page.create",
      targetType: "status_page",
      targetId: created!.id,
      metadata: { slug: input.slug },
    });
    return created!;
  });
  return toPageView(row);
}

export async function getStatusPage(db: Db, workspaceId: number, id: number): Promise<StatusPageView> {
  return toPageView(await pageRow(db, workspaceId, id));
}

export async function listStatusPages(db: Db, workspaceId: number): Promise<StatusPageView[]> {
  const rows = await db.select().from(statusPage).where(eq(statusPage.workspaceId, workspaceId)).orderBy(statusPage.id);
  return rows.map(toPageView);
}

export async function updateStatusPage(db: Db, workspaceId: number, id: number, raw: unknown, actor: Actor): Promise<StatusPageView> {
  const patch = parseInput(StatusPagePatch, raw, "status page");
  const passwordHash = patch.password === undefined ? undefined : patch.password === null ? null : await hashPagePassword(patch.password);
  const row = await audited(db, workspaceId, actor, async (tx, audit) => {
    const current = await pageRow(tx, workspaceId, id);
    const ws = await getWorkspace(tx, workspaceId);
    // Only what this edit turns on is checked: a page keeps what it had when the plan allowed it.
    assertWithinLimits(
      limitsOf(ws).limits,
      featureChecks({
        customDomain: patch.customDomain && patch.customDomain !== current.customDomain ? patch.customDomain : null,
        password: patch.password,
        whiteLabel: patch.whiteLabel && !current.whiteLabel,
      }),
    );
    await assertUniqueSlug(tx, patch.slug, id);
    const { password: _, ...fields } = patch;
    // A different domain is a new claim: unverified, with a new token.
    const claim = patch.customDomain === undefined || patch.customDomain === current.customDomain ? {} : claimColumns(patch.customDomain);
    const [updated] = await tx
      .update(statusPage)
      .set({ ...fields, ...claim, ...(passwordHash === undefined ? {} : { passwordHash }), updatedAt: Date.now() })
      .where(eq(statusPage.id, id))
      .returning();
    await audit({
      action: "status_page.update",
      targetType: "status_page",
      targetId: id,
      // Which fields changed, never the password itself.
      metadata: { fields: Object.keys(patch) },
    });
    return updated!;
  });
  return toPageView(row);
}

export async function deleteStatusPage(db: Db, workspaceId: number, id: number, actor: Actor): Promise<void> {
  await audited(db, workspaceId, actor, async (tx, audit) => {
    const row = await pageRow(tx, workspaceId, id);
    await tx.delete(statusPage).where(eq(statusPage.id, id));
    await audit({
      action: "status_page.delete",
      targetType: "status_page",
      targetId: id,
      metadata: { slug: row.slug },
    });
  });
}

// ── Groups and components ────────────────────────────────────────────────────

async function nextOrder(tx: Conn, table: typeof statusPageGroup | typeof statusPageComponent, pageId: number) {
  const [{ m } = { m: null }] = await tx
    .select({ m: max(table.order) })
    .from(table)
    .where(eq(table.pageId, pageId));
  return (m ?? -1) + 1;
}

export async function createComponentGroup(db: Db, workspaceId: number, pageId: number, raw: unknown, actor: Actor): Promise<GroupRow> {
  const input = parseInput(ComponentGroupInput, raw, "group");
  return audited(db, workspaceId, actor, async (tx, audit) => {
    await pageRow(tx, workspaceId, pageId);
    const [row] = await tx
      .insert(statusPageGroup)
      .values({ pageId, name: input.name, order: input.order ?? (await nextOrder(tx, statusPageGroup, pageId)) })
      .returning();
    await audit({ action: "status_page.group.create", targetType: "status_page_group", targetId: row!.id });
    return row!;
  });
}

async function groupRow(tx: Conn, workspaceId: number, id: number): Promise<GroupRow> {
  const [row] = await tx
    .select({ g: statusPageGroup })
    .from(statusPageGroup)
    .innerJoin(statusPage, eq(statusPage.id, statusPageGroup.pageId))
    .where(and(eq(statusPageGroup.id, id), eq(statusPage.workspaceId, workspaceId)));
  if (!row) throw new NotFoundError("component group", id);
  return row.g;
}

export async function updateComponentGroup(db: Db, workspaceId: number, id: number, raw: unknown, actor: Actor): Promise<GroupRow> {
  const input = parseInput(ComponentGroupInput.partial(), raw, "group");
  return audited(db, workspaceId, actor, async (tx, audit) => {
    await groupRow(tx, workspaceId, id);
    const [row] = await tx.update(statusPageGroup).set(input).where(eq(statusPageGroup.id, id)).returning();
    await audit({ action: "status_page.group.update", targetType: "status_page_group", targetId: id });
    return row!;
  });
}

/** Its components stay on the page, ungrouped. */
export async function deleteComponentGroup(db: Db, workspaceId: number, id: number, actor: Actor): Promise<void> {
  await audited(db, workspaceId, actor, async (tx, audit) => {
    await groupRow(tx, workspaceId, id);
    await tx.update(statusPageComponent).set({ groupId: null }).where(eq(statusPageComponent.groupId, id));
    await tx.delete(statusPageGroup).where(eq(statusPageGroup.id, id));
    await audit({ action: "status_page.group.delete", targetType: "status_page_group", targetId: id });
  });
}

async function assertMonitorOwned(tx: Conn, workspaceId: number, monitorId: number | null | undefined) {
  if (monitorId === null || monitorId === undefined) return;
  const [m] = await tx
    .select({ id: monitor.id })
    .from(monitor)
    .where(and(eq(monitor.id, monitorId), eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)));
  if (!m)
    throw new ValidationError(`monitorId no monitor ${monitorId}`, [
      { path: "monitorId", message: `no monitor ${monitorId} in this workspace` },
    ]);
}

async function assertGroupOnPage(tx: Conn, pageId: number, groupId: number | null | undefined) {
  if (groupId === null || groupId === undefined) return;
  const [g] = await tx
    .select({ id: statusPageGroup.id })
    .from(statusPageGroup)
    .where(and(eq(statusPageGroup.id, groupId), eq(statusPageGroup.pageId, pageId)));
  if (!g) throw new ValidationError(`groupId no group ${groupId}`, [{ path: "groupId", message: `no group ${groupId} on this page` }]);
}

export async function createComponent(db: Db, workspaceId: number, pageId: number, raw: unknown, actor: Actor): Promise<ComponentRow> {
  const input = parseInput(ComponentInput, raw, "component");
  return audited(db, workspaceId, actor, async (tx, audit) => {
    await pageRow(tx, workspaceId, pageId);
    await assertMonitorOwned(tx, workspaceId, input.monitorId);
    await assertGroupOnPage(tx, pageId, input.groupId);
    const [row] = await tx
      .insert(statusPageComponent)
      .values({ ...input, pageId, order: input.order ?? (await nextOrder(tx, statusPageComponent, pageId)) })
      .returning();
    await audit({
      action: "status_page.component.create",
      targetType: "status_page_component",
      targetId: row!.id,
      metadata: { pageId, monitorId: input.monitorId },
    });
    return row!;
  });
}

export async function updateComponent(db: Db, workspaceId: number, id: number, raw: unknown, actor: Actor): Promise<ComponentRow> {
  const patch = parseInput(ComponentPatch, raw, "component");
  return audited(db, workspaceId, actor, async (tx, audit) => {
    const current = await componentRow(tx, workspaceId, id);
    await assertMonitorOwned(tx, workspaceId, patch.monitorId);
    await assertGroupOnPage(tx, current.pageId, patch.groupId);
    const [row] = await tx.update(statusPageComponent).set(patch).where(eq(statusPageComponent.id, id)).returning();
    await audit({
      action: "status_page.component.update",
      targetType: "status_page_component",
      targetId: id,
      metadata: { fields: Object.keys(patch) },
    });
    return row!;
  });
}

export async function deleteComponent(db: Db, workspaceId: number, id: number, actor: Actor): Promise<void> {
  await audited(db, workspaceId, actor, async (tx, audit) => {
    await componentRow(tx, workspaceId, id);
    await tx.delete(statusPageComponent).where(eq(statusPageComponent.id, id));
    await audit({
      action: "status_page.component.delete",
      targetType: "status_page_component",
      targetId: id,
    });
  });
}

/** Orders a page's components (or groups) as listed; ids not on the page are refused. */
export async function reorderComponents(
  db: Db,
  workspaceId: number,
  pageId: number,
  ids: number[],
  actor: Actor,
  what: "components" | "groups" = "components",
): Promise<void> {
  const table = what === "groups" ? statusPageGroup : statusPageComponent;
  await audited(db, workspaceId, actor, async (tx, audit) => {
    await pageRow(tx, workspaceId, pageId);
    const rows = await tx.select({ id: table.id }).from(table).where(eq(table.pageId, pageId));
    const onPage = new Set(rows.map((r) => r.id));
    const bad = ids.findIndex((id) => !onPage.has(id));
    if (bad >= 0)
      throw new ValidationError(`${what}.${bad} not on this page`, [
        { path: `${what}.${bad}`, message: `${ids[bad]} is not on this page` },
      ]);
    for (const [order, id] of ids.entries()) await tx.update(table).set({ order }).where(eq(table.id, id));
    await audit({ action: `status_page.${what}.reorder`, targetType: "status_page", targetId: pageId });
  });
}

export async function listComponents(db: Db, workspaceId: number, pageId: number) {
  await pageRow(db, workspaceId, pageId);
  const [groups, components] = await db.batch([
    db.select().from(statusPageGroup).where(eq(statusPageGroup.pageId, pageId)).orderBy(statusPageGroup.order, statusPageGroup.id),
    db
      .select()
      .from(statusPageComponent)
      .where(eq(statusPageComponent.pageId, pageId))
      .orderBy(statusPageComponent.order, statusPageComponent.id),
  ]);
  return { groups, components };
}
