import { pageSummary, subscriptionLink } from "@vigil/core";
import { LinkButton } from "../../components/link-button";
import { Notice } from "../../components/notice";
import { getDb } from "../../lib/data";
import { currentTranslator } from "../../lib/i18n";

export const dynamic = "force-dynamic";

export async function generateMetadata() {
  return { title: (await currentTranslator()).t("confirm.meta"), robots: { index: false } };
}

/** The link in the confirmation mail; works without sign-in. Opening it changes nothing: the button confirms. */
export default async function Confirm({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw : "";
  const tr = await currentTranslator();
  const r = await subscriptionLink(getDb(), "confirm", token);
  if (r.state === "invalid")
    return (
      <Notice title={tr.t("link.brokenTitle")} tone="bad">
        <p>{tr.t("confirm.broken")}</p>
      </Notice>
    );
  if (!("email" in r))
    return (
      <Notice title={tr.t("confirm.expiredTitle")} tone="bad">
        <p>{tr.t("confirm.expired")}</p>
      </Notice>
    );
  const page = await pageSummary(getDb(), r.pageId);
  const what = (
    <p>{tr.rich("confirm.what", { email: <strong key="email">{r.email}</strong>, page: page?.title ?? tr.t("link.thisPage") })}</p>
  );
  if (r.state === "pending")
    return (
      <Notice title={tr.t("confirm.title")} tone="ok">
        {what}
        <LinkButton action={`/confirm/submit?lang=${tr.locale}`} token={token} label={tr.t("confirm.submit")} />
      </Notice>
    );
  return (
    <Notice title={tr.t("confirm.doneTitle")} tone="ok">
      {what}
      {page ? (
        <p>
          <a href={`/${page.slug}?lang=${tr.locale}`} className="font-medium t-heading underline">
            {tr.t("confirm.goToPage")}
          </a>
        </p>
      ) : null}
    </Notice>
  );
}
