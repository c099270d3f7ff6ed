import { loadPublicReport, pageMeta } from "@vigil/core";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PasswordGate } from "../../../../components/forms";
import { ReportCard } from "../../../../components/report";
import { Shell } from "../../../../components/shell";
import { getDb } from "../../../../lib/data";
import { currentTranslator } from "../../../../lib/i18n";
import { requirePage } from "../../../../lib/page";
import { basePath } from "../../../../lib/site";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string; id: string }> };

async function load(slug: string, id: string) {
  const { page, locked } = await requirePage(slug);
  if (!/^\d{1,12}$/.test(id)) notFound();
  if (locked) return { page, locked, report: null };
  const report = await loadPublicReport(getDb(), page.id, Number(id));
  if (!report) notFound();
  return { page, locked, report };
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug, id } = await params;
  const { page, report } = await load(slug, id);
  return {
    title: report ? `${report.title} · ${page.title}` : page.title,
    robots: page.allowIndex && !page.passwordHash ? undefined : { index: false, follow: false },
  };
}

/** A report's permanent address. */
export default async function Report({ params }: Props) {
  const { slug, id } = await params;
  const { page, locked, report } = await load(slug, id);
  const base = await basePath(page.slug);
  const tr = await currentTranslator();
  if (locked || !report) return <PasswordGate page={pageMeta(page)} base={base} tr={tr} />;
  return (
    <Shell page={pageMeta(page)} base={base} tr={tr}>
      <a href={base || "/"} className="text-sm t-muted hover:underline">
        {tr.t("history.back")}
      </a>
      <ReportCard r={report} base={base} tr={tr} link={false} />
    </Shell>
  );
}
