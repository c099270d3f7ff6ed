import { pageSummary, subscriptionLink } from "@vigil/core";
import { LinkButton } from "../../components/link-button";
import { Notice } from "../../components/notice";
import { getDb } from "../../lib/data";
import { currentTranslator } from "../../lib/i18n";

export const dynamic = "force-dynamic";

export async function generateMetadata() {
  return { title: (await currentTranslator()).t("unsubscribe.meta"), robots: { index: false } };
}

/** The link at the bottom of every subscriber mail; no sign-in. Opening it changes nothing: the button unsubscribes. */
export default async function Unsubscribe({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw : "";
  const tr = await currentTranslator();
  const r = await subscriptionLink(getDb(), "unsubscribe", token);
  if (!("email" in r))
    return (
      <Notice title={tr.t("link.brokenTitle")} tone="bad">
        <p>{tr.t("unsubscribe.broken")}</p>
      </Notice>
    );
  const email = <strong key="email">{r.email}</strong>;
  if (r.state === "unsubscribed")
    return (
      <Notice title={tr.t("unsubscribe.doneTitle")} tone="ok">
        <p>{tr.rich("unsubscribe.done", { email })}</p>
      </Notice>
    );
  const page = await pageSummary(getDb(), r.pageId);
  return (
    <Notice title={tr.t("unsubscribe.title")} tone="ok">
      <p>{tr.rich("unsubscribe.what", { email, page: page?.title ?? tr.t("link.thisPage") })}</p>
      <LinkButton action={`/unsubscribe/submit?lang=${tr.locale}`} token={token} label={tr.t("unsubscribe.submit")} />
    </Notice>
  );
}
