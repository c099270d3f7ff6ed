import type { PublicPageMeta } from "@vigil/core";
import type { Translator } from "@vigil/core/i18n";
import type { ReactNode } from "react";

/** The frame of every page view: theme, header with logo and links, footer with feeds. */
export function Shell({ page, base, tr, children }: { page: PublicPageMeta; base: string; tr: Translator; children: ReactNode }) {
  return (
    <div className={`theme-${page.theme} min-h-screen bg-page t-text`}>
      <div className="mx-auto max-w-3xl px-4 pb-16 pt-10 sm:px-6">
        <header className="flex flex-wrap items-center justify-between gap-4">
          <a href={base || "/"} className="flex items-center gap-3 t-heading">
            {/* biome-ignore lint/performance/noImgElement: a logo from any host the page owner names; no image optimizer needed */}
            {page.logoUrl ? <img src={page.logoUrl} alt="" className="h-9 w-auto max-w-40 object-contain" /> : null}
            <span className="text-xl font-semibold tracking-tight">{page.title}</span>
          </a>
          <nav className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
            {page.links.map((l) => (
              <a key={l.url} href={l.url} className="t-muted hover:t-heading" rel="noopener">
                {l.label}
              </a>
            ))}
            {page.subscribable ? (
              <a
                href={`${base}#subscribe`}
                className="rounded-md border b-line bg-surface px-3 py-1.5 font-medium t-text shadow-sm hover:bg-page"
              >
                {tr.t("shell.subscribe")}
              </a>
            ) : null}
          </nav>
        </header>
        {page.description ? <p className="mt-3 max-w-2xl t-muted">{page.description}</p> : null}
        <main className="mt-8 space-y-10">{children}</main>
        <footer className="mt-14 flex flex-wrap items-center justify-between gap-3 border-t b-line pt-6 text-sm t-muted">
          <nav className="flex gap-4">
            <a href={`${base}/history`} className="hover:t-heading">
              {tr.t("shell.history")}
            </a>
            <a href={`${base}/rss`} className="hover:t-heading">
              RSS
            </a>
            <a href={`${base}/atom`} className="hover:t-heading">
              Atom
            </a>
            <a href={`${base}/status.json`} className="hover:t-heading">
              JSON
            </a>
          </nav>
          {page.whiteLabel ? null : <p>{tr.t("shell.poweredBy", { product: "Vigil" })}</p>}
        </footer>
      </div>
    </div>
  );
}

export function SectionTitle({ children }: { children: ReactNode }) {
  return <h2 className="mb-3 text-sm font-semibold uppercase tracking-wider t-muted">{children}</h2>;
}

export const card = "rounded-xl border b-line bg-surface shadow-sm";
