import { pageMeta } from "@vigil/core";
import type { Metadata } from "next";
import { ComponentRow } from "../../components/bars";
import { PasswordGate, SubscribeForm } from "../../components/forms";
import { Markdown } from "../../components/markdown";
import { ReportCard } from "../../components/report";
import { card, SectionTitle, Shell } from "../../components/shell";
import { publicPage } from "../../lib/data";
import { stateClass } from "../../lib/format";
import { currentTranslator } from "../../lib/i18n";
import { requirePage } from "../../lib/page";
import { basePath } from "../../lib/site";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params;
  const { page } = await requirePage(slug);
  const base = await basePath(page.slug);
  const tr = await currentTranslator();
  return {
    title: tr.t("meta.title", { page: page.title }),
    description: page.description || tr.t("meta.description", { page: page.title }),
    robots: page.allowIndex && !page.passwordHash ? undefined : { index: false, follow: false },
    alternates: { types: { "application/rss+xml": `${base}/rss`, "application/atom+xml": `${base}/atom` } },
  };
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function StatusPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const q = await searchParams;
  const { page, locked } = await requirePage(slug);
  const base = await basePath(page.slug);
  const tr = await currentTranslator();
  if (locked) return <PasswordGate page={pageMeta(page)} base={base} note={one(q.auth)} tr={tr} />;
  const view = await publicPage(page);

  const active = view.maintenances.filter((m) => m.active);
  const upcoming = view.maintenances.filter((m) => !m.active);
  return (
    <Shell page={view.page} base={base} tr={tr}>
      <section aria-live="polite" className={`${stateClass(view.overall)} ${card} flex items-center gap-4 p-5`} data-overall={view.overall}>
        <span className="flex h-10 w-10 flex-none items-center justify-center rounded-full text-white" style={{ background: "var(--c)" }}>
          {view.overall === "operational" ? (
            <svg viewBox="0 0 20 20" fill="currentColor" className="h-6 w-6" aria-hidden>
              <path
                fillRule="evenodd"
                d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z"
              />
            </svg>
          ) : (
            <svg viewBox="0 0 20 20" fill="currentColor" className="h-6 w-6" aria-hidden>
              <path d="M10 2a1.5 1.5 0 0 1 1.5 1.5v7a1.5 1.5 0 0 1-3 0v-7A1.5 1.5 0 0 1 10 2Zm0 12.5a1.75 1.75 0 1 1 0 3.5 1.75 1.75 0 0 1 0-3.5Z" />
            </svg>
          )}
        </span>
        <div>
          <h1 className="text-xl font-semibold t-heading">{tr.t(`overall.${view.overall}`)}</h1>
          <p className="text-sm t-muted">{tr.t("page.asOf", { time: tr.time(view.now) })}</p>
        </div>
      </section>

      {view.activeReports.length > 0 ? (
        <section>
          <SectionTitle>{tr.t("page.activeIncidents")}</SectionTitle>
          <div className="space-y-4">
            {view.activeReports.map((r) => (
              <ReportCard key={r.id} r={r} base={base} tr={tr} />
            ))}
          </div>
        </section>
      ) : null}

      {active.length + upcoming.length > 0 ? (
        <section>
          <SectionTitle>{tr.t("page.maintenance")}</SectionTitle>
          <div className="space-y-4">
            {[...active, ...upcoming].map((m) => (
              <article key={m.id} className={`${card} st-maintenance overflow-hidden`}>
                <div className="h-1" style={{ background: "var(--c)" }} />
                <div className="p-5">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h3 className="text-lg font-semibold t-heading">{m.title}</h3>
                    <span className="fg text-sm font-medium">{tr.t(m.active ? "maintenance.active" : "maintenance.scheduled")}</span>
                  </div>
                  <p className="mt-1 text-sm t-muted">
                    {tr.dateTime(m.startsAt)} – {tr.dateTime(m.endsAt)}
                    {m.components.length > 0 ? ` · ${m.components.map((c) => c.name).join(", ")}` : ""}
                  </p>
                  {m.message ? <Markdown source={m.message} className="mt-3" /> : null}
                </div>
              </article>
            ))}
          </div>
        </section>
      ) : null}

      {view.groups.length > 0 ? (
        <section>
          <SectionTitle>{tr.t("page.components")}</SectionTitle>
          <div className="space-y-4">
            {view.groups.map((g) => (
              <div key={g.id ?? "ungrouped"} className={`${card} divide-y divide-line`}>
                {g.name ? (
                  <div className={`${stateClass(g.state)} flex items-center justify-between bg-sunk px-5 py-3`}>
                    <h3 className="font-semibold t-heading">{g.name}</h3>
                    <span className="fg text-sm">{tr.t(`state.${g.state}`)}</span>
                  </div>
                ) : null}
                {g.components.map((c) => (
                  <ComponentRow key={c.id} c={c} tr={tr} />
                ))}
              </div>
            ))}
          </div>
          <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs t-faint">
            {(["operational", "degraded", "partial_outage", "major_outage", "maintenance", "none"] as const).map((s) => (
              <span key={s} className={`${stateClass(s)} inline-flex items-center gap-1.5`}>
                <span className="dot" aria-hidden />
                {tr.t(`state.${s}`)}
              </span>
            ))}
          </p>
        </section>
      ) : null}

      {view.recentReports.length > 0 ? (
        <section>
          <SectionTitle>{tr.t("page.pastIncidents")}</SectionTitle>
          <ul className={`${card} divide-y divide-line`}>
            {view.recentReports.slice(0, 5).map((r) => (
              <li key={r.id} className="flex flex-wrap items-baseline justify-between gap-2 px-5 py-3">
                <a href={`${base}/reports/${r.id}`} className="font-medium t-heading hover:underline">
                  {r.title}
                </a>
                <span className="text-sm t-muted">{tr.t("page.resolvedAt", { date: tr.dateTime(r.resolvedAt!) })}</span>
              </li>
            ))}
          </ul>
          <p className="mt-3 text-sm">
            <a href={`${base}/history`} className="t-muted underline-offset-2 hover:underline">
              {tr.t("page.fullHistory")}
            </a>
          </p>
        </section>
      ) : null}

      {view.page.subscribable ? <SubscribeForm base={base} note={one(q.subscribe)} wait={one(q.wait)} tr={tr} /> : null}
    </Shell>
  );
}
