import { signPageAccess, verifyPagePassword } from "@vigil/core";
import { localeFromParam } from "@vigil/core/i18n";
import { headers } from "next/headers";
import { ACCESS_TTL_MS, accessCookieName, lockedFor, recordFailure } from "../../../lib/access";
import { clientAddress } from "../../../lib/client";
import { pageBySlug } from "../../../lib/data";
import { getEnv } from "../../../lib/env";
import { seeOther } from "../../../lib/redirect";
import { basePath } from "../../../lib/site";

export const dynamic = "force-dynamic";

/** The password form of a protected page: a right password sets a signed cookie for 7 days (see lib/access.ts for the lockout). */
export async function POST(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const page = await pageBySlug((await params).slug);
  if (!page?.passwordHash) return new Response("Not found\n", { status: 404 });
  const base = await basePath(page.slug);
  // The gate's form says which language the visitor read; every answer lands on the page in it.
  const language = localeFromParam(new URL(req.url).searchParams.get("lang"));
  const back = (auth?: "wrong" | "locked") => {
    const q = new URLSearchParams({ ...(auth ? { auth } : {}), ...(language ? { lang: language } : {}) }).toString();
    return `${base || "/"}${q ? `?${q}` : ""}`;
  };
  const client = clientAddress(await headers(), getEnv().TRUSTED_PROXIES);
  if ((await lockedFor(page, client)) > 0) return seeOther(back("locked"));
  let password = "";
  try {
    password = String((await req.formData()).get("password") ?? "").slice(0, 200);
  } catch {}
  if (!(await verifyPagePassword(page.passwordHash, password))) {
    await recordFailure(page, client);
    // Each wrong guess also costs the guesser time.
    await new Promise((r) => setTimeout(r, 400));
    return seeOther(back("wrong"));
  }
  const expires = Date.now() + ACCESS_TTL_MS;
  const secure = new URL(req.url).protocol === "https:" || (await headers()).get("x-forwarded-proto") === "https";
  const cookie = [
    `${accessCookieName(page.id)}=${signPageAccess(getEnv().AUTH_SECRET, page, expires)}`,
    `Path=${base || "/"}`,
    `Max-Age=${Math.floor(ACCESS_TTL_MS / 1000)}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
  return seeOther(back(), { "set-cookie": cookie });
}
