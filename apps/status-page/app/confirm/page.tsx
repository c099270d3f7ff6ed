import { pageSummary, subscriptionLink } from "@vigil/core";
import { LinkButton } from "../../components/link-button";
import { Notice } from "../../components/notice";
import { getDb } from "../../lib/data";

export const dynamic = "force-dynamic";
export const metadata = { title: "Confirm subscription", robots: { index: false } };

/** The link in the confirmation mail; works without sign-in. Opening it changes nothing: the button confirms. */
export default async function Confirm({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw : "";
  const r = await subscriptionLink(getDb(), "confirm", token);
  if (r.state === "invalid")
    return (
      <Notice title="This link does not work" tone="bad">
        <p>The confirmation link is incomplete or wrong. Copy the whole link from the mail, or subscribe again on the status page.</p>
      </Notice>
    );
  if (!("email" in r))
    return (
      <Notice title="This link has expired" tone="bad">
        <p>Confirmation links work for 48 hours. Subscribe again on the status page to get a new one.</p>
      </Notice>
    );
  const page = await pageSummary(getDb(), r.pageId);
  const of = page ? ` of ${page.title}` : "";
  if (r.state === "pending")
    return (
      <Notice title="Confirm your subscription" tone="ok">
        <p>
          We will mail <strong>{r.email}</strong> about incidents and maintenance{of}.
        </p>
        <LinkButton action="/confirm/submit" token={token} label="Confirm subscription" />
      </Notice>
    );
  return (
    <Notice title="You are subscribed" tone="ok">
      <p>
        We will mail <strong>{r.email}</strong> about incidents and maintenance{of}.
      </p>
      {page ? (
        <p>
          <a href={`/${page.slug}`} className="font-medium t-heading underline">
            Go to the status page
          </a>
        </p>
      ) : null}
    </Notice>
  );
}
