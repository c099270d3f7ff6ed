import { canManage, limitsOf, listPrivateLocations } from "@vigil/core";
import { MapPin } from "lucide-react";
import Link from "next/link";
import { CreateLocationForm } from "../../../../features/locations/create-location-form";
import { getDb } from "../../../../lib/db";
import { ago } from "../../../../lib/format";
import { REGION_CITIES, regionGroups, regionLabel } from "../../../../lib/regions";
import { memberOf } from "../../../../lib/session";
import { NeedsAdmin } from "../../../../ui/needs-admin";
import { OnlineBadge } from "../../../../ui/online";
import { Card, CardHeader, Code, Empty, Notice, PageHeader, Table, td } from "../../../../ui/ui";

export const metadata = { title: "Private locations" };

export default async function Locations({ params }: { params: Promise<{ ws: string }> }) {
  const m = await memberOf((await params).ws);
  const id = m.workspace.id;
  const header = (
    <PageHeader
      title="Private locations"
      description="Probes you run in your own network. Each stands for one region: a monitor runs on every location whose region it lists."
    />
  );
  if (!canManage(m.role)) {
    return (
      <>
        {header}
        <NeedsAdmin what="private locations" role={m.role} />
      </>
    );
  }
  const locations = await listPrivateLocations(getDb(), id);
  const allowed = limitsOf(m.workspace).limits["private-locations"];
  const now = Date.now();
  const cities = Object.fromEntries(Object.entries(REGION_CITIES).map(([k, v]) => [k, v.city]));
  return (
    <>
      {header}
      <Card className="mb-6">
        <CardHeader title="New location" description="You get a SERVICE_KEY and ready-to-paste lines to start the probe." />
        <div className="px-5 py-4">
          {allowed ? null : (
            <div className="mb-4">
              <Notice>
                Private locations are not enabled for this workspace (limit <Code>private-locations</Code> is false). The operator enables
                them by setting the workspace's limits.
              </Notice>
            </div>
          )}
          <CreateLocationForm workspaceId={id} groups={regionGroups()} cities={cities} />
        </div>
      </Card>
      <Card>
        <CardHeader
          title="Locations"
          description={`${locations.length} location${locations.length === 1 ? "" : "s"}, ${locations.filter((l) => l.online).length} online`}
        />
        {locations.length === 0 ? (
          <Empty icon={<MapPin className="size-5" aria-hidden />} title="No private locations yet">
            Create one above, then start the probe with the key it shows.
          </Empty>
        ) : (
          <Table head={["Name", "Region", "Status", "Last seen", "Key"]}>
            {locations.map((l) => (
              <tr key={l.id} data-testid={`location-${l.id}`}>
                <td className={td}>
                  <Link href={`/w/${id}/locations/${l.id}`} className="font-medium text-indigo-700 hover:underline">
                    {l.name}
                  </Link>
                </td>
                <td className={td}>{regionLabel(l.region)}</td>
                <td className={td}>
                  <OnlineBadge online={l.online} overloaded={l.overloadedSince !== null} />
                </td>
                <td className={`${td} text-zinc-600`}>{ago(l.lastSeenAt, now)}</td>
                <td className={`${td} font-mono text-xs text-zinc-500`}>{l.keyPrefix}…</td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </>
  );
}
