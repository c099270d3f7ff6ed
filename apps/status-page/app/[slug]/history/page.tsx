import { loadMaintenanceHistory, loadReportHistory, pageMeta } from "@vigil/core";
import type { Metadata } from "next";
import { PasswordGate } from "../../../components/forms";
import { ReportCard } from "../../../components/report";
import { card, SectionTitle, Shell } from "../../../components/shell";
import { getDb } from "../../../lib/data";
import { currentTranslator } from "../../../lib/i18n";
import { requirePage } from "../../../lib/page";
import { basePath } from "../../../lib/site";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { page } = await requirePage((await params).slug);
  const tr = await currentTranslator();
  return {
    title: tr.t("meta.history", { page: page.title }),
    robots: page.allowIndex && !page.passwordHash ? undefined : { index: false, follow: false },
  };
}

export default async function History({ params }: Props) {
  const { page, locked } = await requirePage((await params).slug);
  const base = await basePath(page.slug);
  const tr = await currentTranslator();
  if (locked) return <PasswordGate page={pageMeta(page)} base={base} tr={tr} />;
  const [reports, windows] = await Promise.all([
    loadReportHistory(getDb(), page.id, { limit: 100 }),
    loadMaintenanceHistory(getDb(), page.id, 50),
  ]);
  return (
    <Shell page={pageMeta(page)} base={base} tr={tr}>
      <div>
        <a href={base || "/"} className="text-sm t-muted hover:underline">
          {tr.t("history.back")}
        </a>
        <h1 className="mt-2 text-2xl font-semibold t-heading">{tr.t("history.title")}</h1>
      </div>
      <section>
        <SectionTitle>{tr.t("history.incidents")}</SectionTitle>
        {reports.length === 0 ? (
          <p className={`${card} p-5 t-muted`}>{tr.t("history.none")}</p>
        ) : (
          <div className="space-y-4">
            {reports.map((r) => (
              <ReportCard key={r.id} r={r} base={base} tr={tr} />
            ))}
          </div>
        )}
      </section>
      {windows.length > 0 ? (
        <section>
          <SectionTitle>{tr.t("page.maintenance")}</SectionTitle>
          <ul className={`${card} divide-y divide-line`}>
            {windows.map((m) => (
              <li key={m.id} className="px-5 py-3">
                <p className="font-medium t-heading">{m.title}</p>
                <p className="text-sm t-muted">
                  {tr.dateTime(m.startsAt)} – {tr.dateTime(m.endsAt)}
                </p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Shell>
  );
}
