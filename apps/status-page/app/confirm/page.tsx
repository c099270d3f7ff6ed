import { confirmSubscription, pageSummary } from "@vigil/core";
import { Notice } from "../../components/notice";
import { getDb } from "../../lib/data";

export const dynamic = "force-dynamic";
export const metadata = { title: "Confirm subscription", robots: { index: false } };

/** The link in the confirmation mail; works without sign-in. */
export default async function Confirm({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const raw = (await searchParams).token;
  const r = await confirmSubscription(getDb(), typeof raw === "string" ? raw : "");
  if (r.outcome === "invalid")
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
  return (
    <Notice title={r.outcome === "confirmed" ? "You are subscribed" : "Already confirmed"} tone="ok">
      <p>
        {r.outcome === "confirmed" ? "Thank you." : "This link was used before; nothing changed."} We will mail <strong>{r.email}</strong>{" "}
        about incidents and maintenance{page ? ` of ${page.title}` : ""}.
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
