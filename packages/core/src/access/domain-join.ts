import { type Db, workspace, workspaceMember } from "@vigil/db-schema";
import { assertWithinLimits, LimitExceededError } from "@vigil/limits";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { auditInsertWhen } from "../audit";
import { limitsOf } from "./workspace";

/** One rule of AUTH_OIDC_DOMAIN_RULES: people of `domain` join workspace `workspaceId` as `role`. */
export interface DomainRule {
  domain: string;
  workspaceId: number;
  role: "viewer" | "member";
}

const Rule = z
  .string()
  .trim()
  .regex(/^[a-z0-9.-]+\.[a-z]{2,}=\d{1,15}:(viewer|member)$/i, "each rule must read domain=<workspaceId>:viewer|member")
  .transform((r): DomainRule => {
    const [domain, rest] = r.split("=") as [string, string];
    const [ws, role] = rest.split(":") as [string, "viewer" | "member"];
    return { domain: domain.toLowerCase(), workspaceId: Number(ws), role: role.toLowerCase() as "viewer" | "member" };
  });

/** `example.com=3:viewer,corp.example=4:member` → rules; the zod message names the rule format. */
export const DomainRules = z
  .string()
  .transform((s) => s.split(",").filter((r) => r.trim() !== ""))
  .pipe(z.array(Rule));

/** The rule for an address's domain (exact match, case-insensitive), if any. */
export const ruleFor = (rules: DomainRule[], email: string): DomainRule | undefined => {
  const domain = email.toLowerCase().split("@")[1];
  return rules.find((r) => r.domain === domain);
};

/**
 * Puts a signed-in user into the workspace their e-mail domain's rule names, unless they are already in it.
 * Seats count: a full workspace (limit `members`) lets nobody in, and the refusal is returned, not thrown.
 */
export async function joinByDomainRule(
  db: Db,
  rules: DomainRule[],
  u: { id: string; email: string },
): Promise<{ joined: boolean; workspaceId?: number; reason?: string }> {
  const rule = ruleFor(rules, u.email);
  if (!rule) return { joined: false };
  const [ws] = await db.select().from(workspace).where(eq(workspace.id, rule.workspaceId));
  if (!ws) return { joined: false, reason: `workspace ${rule.workspaceId} of the domain rule does not exist` };
  const [already] = await db
    .select({ role: workspaceMember.role })
    .from(workspaceMember)
    .where(and(eq(workspaceMember.workspaceId, ws.id), eq(workspaceMember.userId, u.id)));
  if (already) return { joined: false, workspaceId: ws.id };
  const limits = limitsOf(ws).limits;
  const [count] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM workspace_member WHERE workspace_id = ${ws.id}`);
  try {
    assertWithinLimits(limits, [{ kind: "count", key: "members", total: Number(count?.n ?? 0) + 1 }]);
  } catch (err) {
    if (err instanceof LimitExceededError) return { joined: false, workspaceId: ws.id, reason: err.message };
    throw err;
  }
  const res = await db.run(sql`INSERT INTO workspace_member (workspace_id, user_id, role) VALUES (${ws.id}, ${u.id}, ${rule.role})
    ON CONFLICT DO NOTHING`);
  if (res.rowsAffected === 1) {
    await db.run(
      auditInsertWhen(
        {
          workspaceId: ws.id,
          actor: `user:${u.id}`,
          action: "member.join",
          targetType: "user",
          targetId: u.id,
          metadata: { email: u.email, role: rule.role, via: `sign-in domain rule ${rule.domain}` },
        },
        sql`1`,
      ),
    );
  }
  return { joined: res.rowsAffected === 1, workspaceId: ws.id };
}
