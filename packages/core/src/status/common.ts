import { randomBytes } from "node:crypto";
import type { StatusPage } from "@vigil/api-contract";
import { type Conn, statusPage, statusPageComponent } from "@vigil/db-schema";
import { and, eq } from "drizzle-orm";
import { NotFoundError } from "../errors";

export type PageRow = typeof statusPage.$inferSelect;
export type ComponentRow = typeof statusPageComponent.$inferSelect;

/** What the dashboard and API see of a page: never the password hash (the API's StatusPage). */
export type StatusPageView = StatusPage;

/** A page of this workspace, or not found (another workspace's page is not found too). */
export async function pageRow(tx: Conn, workspaceId: number, id: number): Promise<PageRow> {
  const [row] = await tx
    .select()
    .from(statusPage)
    .where(and(eq(statusPage.id, id), eq(statusPage.workspaceId, workspaceId)));
  if (!row) throw new NotFoundError("status page", id);
  return row;
}

export async function componentRow(tx: Conn, workspaceId: number, id: number): Promise<ComponentRow> {
  const [row] = await tx
    .select({ c: statusPageComponent })
    .from(statusPageComponent)
    .innerJoin(statusPage, eq(statusPage.id, statusPageComponent.pageId))
    .where(and(eq(statusPageComponent.id, id), eq(statusPage.workspaceId, workspaceId)));
  if (!row) throw new NotFoundError("component", id);
  return row.c;
}

/** A URL-safe random token. */
export const newToken = (): string => randomBytes(24).toString("base64url");
