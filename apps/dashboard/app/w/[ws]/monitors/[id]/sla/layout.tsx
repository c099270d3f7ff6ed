import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { slaSubject } from "../../../../../../features/sla/sla";
import { memberOf } from "../../../../../../lib/session";
import { Code, PageHeader } from "../../../../../../ui/ui";

/**
 * The monitor's name above its SLA report. Checked here, outside the page's loading boundary: another
 * workspace's monitor answers 404 before anything is streamed.
 */
export default async function MonitorSlaLayout({ children, params }: { children: ReactNode; params: Promise<{ ws: string; id: string }> }) {
  const { ws, id } = await params;
  const m = await memberOf(ws);
  const mon = await slaSubject("monitors", m.workspace.id, id);
  if (!mon) notFound();
  return (
    <>
      <Link
        href={`/w/${m.workspace.id}/monitors/${mon.id}`}
        className="mb-3 inline-flex items-center gap-1 text-sm text-zinc-500 hover:text-zinc-900"
      >
        <ArrowLeft className="size-4" aria-hidden />
        {mon.name}
      </Link>
      <PageHeader
        title={`SLA report · ${mon.name}`}
        description={
          <>
            Uptime and error budget of this monitor: the same figures as the API and <Code>vigil report</Code>.
          </>
        }
      />
      {children}
    </>
  );
}
