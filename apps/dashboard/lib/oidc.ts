import { joinByDomainRule } from "@vigil/core";
import type { NextAuthConfig } from "next-auth";
import { getDb } from "./db";
import { type DashboardEnv, publicOrigin } from "./env";
import { log } from "./log";

/**
 * The generic OpenID Connect provider (Keycloak, Authentik, Okta, Entra ID, Google Workspace…), from
 * AUTH_OIDC_ISSUER / _ID / _SECRET; discovery reads the issuer's /.well-known/openid-configuration.
 */
export function oidcProvider(env: DashboardEnv): NextAuthConfig["providers"][number] | null {
  if (!env.AUTH_OIDC_ISSUER || !env.AUTH_OIDC_ID || !env.AUTH_OIDC_SECRET) return null;
  return {
    id: "oidc",
    name: env.AUTH_OIDC_NAME,
    type: "oidc",
    issuer: env.AUTH_OIDC_ISSUER,
    clientId: env.AUTH_OIDC_ID,
    clientSecret: env.AUTH_OIDC_SECRET,
    checks: ["pkce", "state", "nonce"],
    // The redirect URI is always the public one: Next reports a loopback request's host as "localhost", which
    // would make the token request's redirect_uri differ from the authorization's (the provider refuses that).
    redirectProxyUrl: `${publicOrigin(env)}/api/auth`,
    authorization: { params: { scope: "openid email profile" } },
  };
}

/** After an OIDC sign-in: AUTH_OIDC_DOMAIN_RULES places the person in their company's workspace (once). */
export async function applyDomainRule(env: DashboardEnv, u: { id?: string; email?: string | null }): Promise<void> {
  if (env.AUTH_OIDC_DOMAIN_RULES.length === 0 || !u.id || !u.email) return;
  const out = await joinByDomainRule(getDb(), env.AUTH_OIDC_DOMAIN_RULES, { id: u.id, email: u.email });
  if (out.joined) log().info({ userId: u.id, workspaceId: out.workspaceId }, "joined a workspace by the sign-in domain rule");
  else if (out.reason) log().warn({ userId: u.id, workspaceId: out.workspaceId, reason: out.reason }, "sign-in domain rule not applied");
}
