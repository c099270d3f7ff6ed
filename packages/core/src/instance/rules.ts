import { type Db, instance, user } from "@vigil/db-schema";
import { PRESET_NAMES, type PresetName } from "@vigil/limits";
import { asc, sql } from "drizzle-orm";
import { z } from "zod";

export const SIGNUP_MODES = ["closed", "invite", "open"] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

/** The operator's rules for this instance, from its environment (VIGIL_ADMIN_EMAILS, VIGIL_SIGNUP, VIGIL_SIGNUP_LIMITS). */
export interface InstanceRules {
  adminEmails: readonly string[];
  /** Unset: the install's stored default (closed for a new install, open for one that had users before). */
  signup?: SignupMode;
  signupLimits: PresetName;
}

/** The env variables, as every app parses them (packages/config-style zod, one place). */
export const InstanceRulesEnv = {
  VIGIL_ADMIN_EMAILS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? "")
        .split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email("must be a comma-separated list of e-mail addresses"))),
  VIGIL_SIGNUP: z.enum(SIGNUP_MODES, { error: "must be closed, invite or open" }).optional(),
  VIGIL_SIGNUP_LIMITS: z.enum(PRESET_NAMES, { error: `must be one of ${PRESET_NAMES.join(", ")}` }).default("restricted"),
};

export function instanceRules(e: {
  VIGIL_ADMIN_EMAILS: string[];
  VIGIL_SIGNUP?: SignupMode;
  VIGIL_SIGNUP_LIMITS: PresetName;
}): InstanceRules {
  return { adminEmails: e.VIGIL_ADMIN_EMAILS, signup: e.VIGIL_SIGNUP, signupLimits: e.VIGIL_SIGNUP_LIMITS };
}

/** The sign-up rule in force: the operator's, else the install's stored default, else closed. */
export async function signupMode(db: Db, rules: InstanceRules): Promise<SignupMode> {
  if (rules.signup) return rules.signup;
  const [row] = await db.select({ mode: instance.signupDefault }).from(instance).limit(1);
  return row?.mode ?? "closed";
}

/** The first person who ever signed in (insertion order): the instance's admin until the operator names others. */
export async function firstUserId(db: Db): Promise<string | null> {
  const [row] = await db.select({ id: user.id }).from(user).orderBy(asc(sql`rowid`)).limit(1);
  return row?.id ?? null;
}

/** Instance admins: the addresses in VIGIL_ADMIN_EMAILS and the first user of the instance. A disabled user is none. */
export async function isInstanceAdmin(db: Db, u: { id: string; email?: string | null }, rules: InstanceRules): Promise<boolean> {
  const [row] = await db.all<{ disabled: number | null; first: number }>(
    sql`SELECT disabled_at AS disabled, (id = (SELECT id FROM user ORDER BY rowid LIMIT 1)) AS first FROM user WHERE id = ${u.id}`,
  );
  if (!row || row.disabled !== null) return false;
  if (u.email && rules.adminEmails.includes(u.email.toLowerCase())) return true;
  return Number(row.first) === 1;
}

/** Who to ask when something needs an instance admin: the configured addresses, else the first user's. */
export async function instanceAdminContacts(db: Db, rules: InstanceRules): Promise<string[]> {
  if (rules.adminEmails.length > 0) return [...rules.adminEmails];
  const [row] = await db.all<{ email: string | null }>(sql`SELECT email FROM user ORDER BY rowid LIMIT 1`);
  return row?.email ? [row.email] : [];
}
