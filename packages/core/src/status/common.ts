import { randomBytes } from "node:crypto";
import { type Conn, statusPage, statusPageComponent } from "@vigil/db-schema";
import { and, eq } from "drizzle-orm";
import { NotFoundError } from "../errors";
import type { DomainVerification } from "./domain-verification";

export type PageRow = typeof statusPage.$inferSelect;
export type ComponentRow = typeof statusPageComponent.$inferSelect;

/** What the dashboard and API see of a page: never the password hash. */
export interface StatusPageView {
  id: number;
  slug: string;
  title: string;
  description: string;
  logoUrl: string | null;
  links: { label: string; url: string }[];
  theme: "system" | "light" | "dark";
  /** The language visitors see unless their browser or `?lang=` asks for another. */
  language: PageRow["language"];
  customDomain: string | null;
  /** How to prove the custom domain and whether it is proven; null without one. Only a proven domain is served. */
  domainVerification: DomainVerification | null;
  passwordProtected: boolean;
  whiteLabel: boolean;
  allowIndex: boolean;
  published: boolean;
  createdAt: number;
  updatedAt: number;
}

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
