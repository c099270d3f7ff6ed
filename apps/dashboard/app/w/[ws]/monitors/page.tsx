import { listMonitors } from "@vigil/core";
import { Coming } from "../../../../components/coming";
import { MonitorsActions } from "../../../../components/monitors-actions";
import { Badge, Card, CardHeader, PageHeader, Table, td } from "../../../../components/ui";
import { getDb } from "../../../../lib/db";
import { regionLabel } from "../../../../lib/regions";
import { memberOf } from "../../../../lib/session";

export const metadata = { title: "Monitors" };

const tone = { active: "green", degraded: "amber", error: "red" } as const;

export default async function Monitors({ params }: { params: Promise<{ ws: string }> }) {
  const m = await memberOf((await params).ws);
  const monitors = await listMonitors(getDb(), m.workspace.id);
  return (
    <>
      <PageHeader
        title="Monitors"
        description="HTTP and TCP checks run by your private locations."
        action={<MonitorsActions workspaceId={m.workspace.id} />}
      />
      {monitors.length > 0 ? (
        <Card className="mb-6">
          <CardHeader title={`${monitors.length} monitor${monitors.length === 1 ? "" : "s"}`} description="Read-only here for now." />
          <Table head={["Name", "Kind", "Every", "Regions", "Status"]}>
            {monitors.map((mon) => (
              <tr key={mon.id}>
                <td className={td}>
                  <span className="font-medium">{mon.name || mon.key || `#${mon.id}`}</span>
                  {mon.key ? <span className="block font-mono text-xs text-zinc-500">{mon.key}</span> : null}
                </td>
                <td className={td}>{mon.kind.toUpperCase()}</td>
                <td className={td}>{mon.frequency}</td>
                <td className={`${td} text-zinc-600`}>{mon.regions.map(regionLabel).join(", ")}</td>
                <td className={td}>
                  <Badge tone={tone[mon.status]}>{mon.active ? mon.status : "paused"}</Badge>
                </td>
              </tr>
            ))}
          </Table>
        </Card>
      ) : null}
      <Coming
        what="monitors"
        commands={
          "export VIGIL_API_URL=http://127.0.0.1:3001 VIGIL_API_TOKEN=<API key>\npnpm vigil create monitors.yaml   # create from YAML\npnpm vigil apply monitors.yaml    # plan and apply changes\npnpm vigil list"
        }
      >
        Until then, monitors are managed as code with the <code>vigil</code> CLI and an API key from the API keys page.
      </Coming>
    </>
  );
}
