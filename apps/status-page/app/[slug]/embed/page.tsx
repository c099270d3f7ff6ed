import type { Metadata } from "next";
import { card } from "../../../components/shell";
import { publicPage } from "../../../lib/data";
import { stateClass } from "../../../lib/format";
import { currentTranslator } from "../../../lib/i18n";
import { requirePage } from "../../../lib/page";
import { basePath } from "../../../lib/site";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { page } = await requirePage((await params).slug);
  const tr = await currentTranslator();
  return { title: tr.t("meta.title", { page: page.title }), robots: { index: false, follow: false } };
}

/**
 * A compact view for an iframe on another site: the overall state, open incidents and maintenance, each a
 * link that opens the full page in the top window. A protected page shows nothing of itself here.
 */
export default async function Embed({ params }: Props) {
  const { page, locked } = await requirePage((await params).slug);
  const base = await basePath(page.slug);
  const tr = await currentTranslator();
  const full = `${base || "/"}?lang=${tr.locale}`;
  if (locked)
    return (
      <a href={full} target="_top" className="block p-3 text-sm t-muted underline">
        {tr.t("gate.submit")}
      </a>
    );
  const view = await publicPage(page);
  const notices = [
    ...view.activeReports.map((r) => ({
      key: `r${r.id}`,
      href: `${base}/reports/${r.id}`,
      title: r.title,
      tag: tr.t(`report.${r.status}`),
    })),
    ...view.maintenances.map((m) => ({
      key: `m${m.id}`,
      href: full,
      title: m.title,
      tag: m.active ? tr.t("maintenance.active") : tr.t("maintenance.scheduled"),
    })),
  ];
  return (
    <div className={`theme-${view.page.theme} t-text p-2`}>
      <div className={`${card} ${stateClass(view.overall)} p-3`} data-overall={view.overall}>
        <a href={full} target="_top" className="flex items-center gap-2 font-medium t-heading hover:underline">
          <span className="dot" aria-hidden />
          <span>{tr.t(`overall.${view.overall}`)}</span>
          <span className="ml-auto text-xs font-normal t-muted">{view.page.title}</span>
        </a>
        {notices.length > 0 ? (
          <ul className="mt-2 space-y-1 border-t b-line pt-2 text-sm">
            {notices.slice(0, 3).map((n) => (
              <li key={n.key} className="flex items-baseline justify-between gap-2">
                <a href={n.href} target="_top" className="truncate t-heading hover:underline">
                  {n.title}
                </a>
                <span className="flex-none text-xs t-muted">{n.tag}</span>
              </li>
            ))}
          </ul>
        ) : null}
        <p className="mt-2 text-xs t-faint">{tr.t("page.asOf", { time: tr.time(view.now) })}</p>
      </div>
    </div>
  );
}
