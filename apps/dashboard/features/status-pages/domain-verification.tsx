"use client";
// The custom domain's proof: what to publish, where the claim stands, and "Verify now".
import type { DomainVerification } from "@vigil/core";
import { Globe, RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import { dateTime } from "../../lib/format";
import { ActionForm } from "../../ui/action-form";
import { CopyButton } from "../../ui/copy-button";
import { Badge, Button, Empty } from "../../ui/ui";
import { verifyDomainAction } from "./actions";

/** One value to paste into a DNS zone or a web server, with its copy button. */
function Row({ label, value, copy = label.toLowerCase() }: { label: string; value: string; copy?: string }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[7rem_1fr_auto] sm:items-center sm:gap-3">
      <span className="text-xs font-medium text-zinc-500">{label}</span>
      <code data-copy={value.slice(0, 40)} className="min-w-0 break-all rounded bg-zinc-100 px-2 py-1 font-mono text-xs text-zinc-800">
        {value}
      </code>
      <CopyButton value={value} label={`Copy ${copy}`} />
    </div>
  );
}

/** The steps; once the domain is verified they fold away (a native disclosure, keyboard-usable). */
function Steps({ open, children }: { open: boolean; children: ReactNode }) {
  if (open) return <div className="grid gap-5">{children}</div>;
  return (
    <details className="group rounded-lg border border-zinc-200">
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-zinc-700">The records and file for this domain</summary>
      <div className="grid gap-5 border-t border-zinc-100 p-3">{children}</div>
    </details>
  );
}

function State({ v }: { v: DomainVerification }) {
  if (v.state === "verified")
    return (
      <div role="status" data-state="verified" className="grid gap-1">
        <span>
          <Badge tone="green">Verified</Badge>{" "}
          <span className="text-sm text-zinc-600">since {dateTime(v.verifiedAt!)}; visitors on this domain see the page.</span>
        </span>
        {v.error ? (
          <p className="text-xs text-zinc-500">
            The last check ({dateTime(v.checkedAt!)}) failed: {v.error}. The domain stays verified.
          </p>
        ) : null}
      </div>
    );
  if (v.state === "failed")
    return (
      <div role="status" data-state="failed" className="grid gap-1">
        <span>
          <Badge tone="red">Not verified</Badge>{" "}
          <span className="text-sm text-zinc-600">checked {dateTime(v.checkedAt ?? Date.now())}</span>
        </span>
        <p className="whitespace-pre-line text-sm text-red-700">{v.error}</p>
      </div>
    );
  return (
    <div role="status" data-state="pending">
      <Badge tone="amber">Pending</Badge>{" "}
      <span className="text-sm text-zinc-600">Not checked yet. Until it is verified the domain shows nothing of this page.</span>
    </div>
  );
}

export function DomainVerificationPanel({
  workspaceId,
  pageId,
  domain,
  verification,
  statusHost,
}: {
  workspaceId: number;
  pageId: number;
  domain: string | null;
  verification: DomainVerification | null;
  /** Where the domain's CNAME points: the status-page server's host. */
  statusHost: string;
}) {
  if (!domain || !verification)
    return (
      <Empty icon={<Globe className="size-5" aria-hidden />} title="No custom domain">
        Enter one in the settings above and save. This card then shows how to prove the domain is yours; it is served only once proven.
      </Empty>
    );
  return (
    <div className="grid gap-5 px-5 py-4">
      <State v={verification} />
      <Steps open={verification.state !== "verified"}>
        <section className="grid gap-2">
          <h3 className="text-sm font-medium text-zinc-800">1. Prove that {domain} is yours, with one of these</h3>
          <p className="text-xs text-zinc-500">Another workspace may claim the same name, but only a proven claim is served.</p>
          <fieldset className="grid gap-2 rounded-lg border border-zinc-200 p-3">
            <legend className="px-1 text-xs font-semibold text-zinc-700">A DNS TXT record</legend>
            <Row label="Name" value={verification.txtName} />
            <Row label="Value" value={verification.txtValue} />
          </fieldset>
          <fieldset className="grid gap-2 rounded-lg border border-zinc-200 p-3">
            <legend className="px-1 text-xs font-semibold text-zinc-700">
              Or a file on your web server (before pointing the domain here)
            </legend>
            <Row label="URL" value={verification.httpUrl} copy="URL" />
            <Row label="Content" value={verification.token} />
            <p className="text-xs text-zinc-500">It must answer HTTP 200 with exactly this content, without a redirect.</p>
          </fieldset>
        </section>
        <section className="grid gap-2">
          <h3 className="text-sm font-medium text-zinc-800">2. Point the domain at the status-page server</h3>
          <Row label="CNAME" value={`${domain}. CNAME ${statusHost}.`} copy="CNAME record" />
        </section>
      </Steps>
      <ActionForm action={verifyDomainAction} hidden={{ workspaceId, pageId }} className="flex flex-wrap items-center gap-3">
        {(_state, pending) => (
          <Button variant={verification.state === "verified" ? "secondary" : "primary"} disabled={pending} aria-busy={pending}>
            <RefreshCw className={pending ? "size-4 animate-spin" : "size-4"} aria-hidden />
            {pending ? "Checking…" : verification.state === "verified" ? "Check again" : "Verify now"}
          </Button>
        )}
      </ActionForm>
    </div>
  );
}
