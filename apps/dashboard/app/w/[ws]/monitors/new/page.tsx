import { emptyDraft } from "../../../../../features/monitors/form/draft";
import { monitorFormData } from "../../../../../features/monitors/form/form-data";
import { MonitorForm } from "../../../../../features/monitors/form/monitor-form";
import { memberOf } from "../../../../../lib/session";
import { PageHeader } from "../../../../../ui/ui";

export const metadata = { title: "New monitor" };

export default async function NewMonitor({ params }: { params: Promise<{ ws: string }> }) {
  const m = await memberOf((await params).ws);
  const data = await monitorFormData(m.workspace);
  const frequency = data.frequencies.includes("1m") ? "1m" : (data.frequencies[0] ?? "");
  // One location: preselected, since it is the only place the monitor can run.
  const regions = data.locations.length === 1 ? [data.locations[0]!.region] : [];
  return (
    <>
      <PageHeader
        title="New monitor"
        description="What to watch: a URL, a port, a certificate, a DNS record, a database, or a heartbeat your job sends. Probe checks run from your private locations; test one before saving."
      />
      <MonitorForm workspaceId={m.workspace.id} initial={emptyDraft(frequency, regions)} {...data} />
    </>
  );
}
