// The confirm and unsubscribe links of subscriber mail. Mail scanners open every link in a mail: a GET of
// either shows what it would do and a button; only the button's POST acts. The token in the form body is the
// credential, so a cross-site POST without it achieves nothing.
import { confirmSubscription, unsubscribe } from "@vigil/core";
import { localeFromParam } from "@vigil/core/i18n";
import { getDb } from "./data";
import { seeOther } from "./redirect";

const ACT = { confirm: confirmSubscription, unsubscribe } as const;

/** The POST behind a link's button: acts, then shows the link's page again, which now tells the outcome. */
export async function actOnLink(req: Request, kind: keyof typeof ACT): Promise<Response> {
  let token = "";
  try {
    token = String((await req.formData()).get("token") ?? "");
  } catch {}
  await ACT[kind](getDb(), token);
  const lang = localeFromParam(new URL(req.url).searchParams.get("lang"));
  return seeOther(`/${kind}?token=${encodeURIComponent(token)}${lang ? `&lang=${lang}` : ""}`);
}
