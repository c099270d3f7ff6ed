import { pageSummary, subscriptionLink } from "@vigil/core";
import { LinkButton } from "../../components/link-button";
import { Notice } from "../../components/notice";
import { getDb } from "../../lib/data";

export const dynamic = "force-dynamic";
export const metadata = { title: "Unsubscribe", robots: { index: false } };

/** The link at the bottom of every subscriber mail; no sign-in. Opening it changes nothing: the button unsubscribes. */
export default async function Unsubscribe({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw : "";
  const r = await subscriptionLink(getDb(), "unsubscribe", token);
  if (!("email" in r))
    return (
      <Notice title="This link does not work" tone="bad">
        <p>The unsubscribe link is incomplete or wrong. Copy the whole link from the mail.</p>
      </Notice>
    );
  if (r.state === "unsubscribed")
    return (
      <Notice title="You are unsubscribed" tone="ok">
        <p>
          <strong>{r.email}</strong> will get no more mail from this status page.
        </p>
      </Notice>
    );
  const page = await pageSummary(getDb(), r.pageId);
  return (
    <Notice title="Unsubscribe?" tone="ok">
      <p>
        <strong>{r.email}</strong> gets mail about incidents and maintenance{page ? ` of ${page.title}` : ""}.
      </p>
      <LinkButton action="/unsubscribe/submit" token={token} label="Unsubscribe" />
    </Notice>
  );
}
