import { ChevronLeft, ExternalLink } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { editorPage } from "../../../../../features/status-pages/status-page";
import { StatusTabs } from "../../../../../features/status-pages/status-tabs";
import { getEnv } from "../../../../../lib/env";
import { Badge, buttonClass } from "../../../../../ui/ui";

export default async function StatusPageEditor({ children, params }: { children: ReactNode; params: Promise<{ ws: string; id: string }> }) {
  const { ws, id } = await params;
  const { page, base } = await editorPage(ws, id);
  const url = `${getEnv().STATUS_PAGE_URL}/${page.slug}`;
  return (
    <>
      <Link href={`/w/${ws}/status-pages`} className="mb-3 inline-flex items-center gap-1 text-sm text-zinc-500 hover:text-zinc-900">
        <ChevronLeft className="size-4" aria-hidden />
        Status pages
      </Link>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight">
            {page.title}
            {page.published ? null : <Badge tone="amber">unpublished</Badge>}
          </h1>
          <p className="mt-1 font-mono text-xs text-zinc-500">{url}</p>
        </div>
        <a href={url} target="_blank" rel="noreferrer" className={buttonClass("secondary")} data-testid="public-link">
          <ExternalLink className="size-4" aria-hidden />
          View public page
        </a>
      </div>
      <StatusTabs base={base} />
      {children}
    </>
  );
}
