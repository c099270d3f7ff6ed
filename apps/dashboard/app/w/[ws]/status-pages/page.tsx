import { Coming } from "../../../../components/coming";
import { PageHeader } from "../../../../components/ui";
import { memberOf } from "../../../../lib/session";

export const metadata = { title: "Status pages" };

export default async function StatusPages({ params }: { params: Promise<{ ws: string }> }) {
  await memberOf((await params).ws);
  return (
    <>
      <PageHeader title="Status pages" description="Public pages showing the uptime of the monitors you choose, served on :3003." />
      <Coming what="status pages">
        Status pages are served by the status-page app; creating and editing them here arrives with the status-page work.
      </Coming>
    </>
  );
}
