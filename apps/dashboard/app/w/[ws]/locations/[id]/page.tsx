import { canManage, listPrivateLocations } from "@vigil/core";
import { ChevronLeft } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { deleteLocationAction } from "../../../../../features/locations/actions";
import { getDb } from "../../../../../lib/db";
import { ago, dateTime } from "../../../../../lib/format";
import { regionLabel } from "../../../../../lib/regions";
import { memberOf } from "../../../../../lib/session";
import { ConfirmAction } from "../../../../../ui/confirm";
import { NeedsAdmin } from "../../../../../ui/needs-admin";
import { OnlineBadge } from "../../../../../ui/online";
import { Card, CardHeader, PageHeader } from "../../../../../ui/ui";

export const metadata = { title: "Private location" };

export default async function Location({ params }: { params: Promise<{ ws: string; id: string }> }) {
  const p = await params;
  const m = await memberOf(p.ws);
  const wsId = m.workspace.id;
  // Only this workspace's live locations: another workspace's id is simply not here.
  const loc = (await listPrivateLocations(getDb(), wsId)).find((l) => String(l.id) === p.id);
  if (!loc) notFound();
  const back = (
    <Link href={`/w/${wsId}/locations`} className="mb-3 inline-flex items-center gap-1 text-sm text-zinc-500 hover:text-zinc-900">
      <ChevronLeft className="size-4" aria-hidden /> Private locations
    </Link>
  );
  if (!canManage(m.role)) {
    return (
      <>
        {back}
        <PageHeader title={loc.name} />
        <NeedsAdmin what="private locations" role={m.role} />
      </>
    );
  }
  const rows: [string, React.ReactNode][] = [
    ["Status", <OnlineBadge key="s" online={loc.online} overloaded={loc.overloadedSince !== null} />],
    [
      "Skipped checks",
      loc.skippedChecks === 0
        ? "none — every check ran in time"
        : `${loc.skippedChecks} not run in time because the probe was busy${loc.overloadedSince ? `; overloaded since ${dateTime(loc.overloadedSince)}` : ""} (never alerts, not counted in uptime)`,
    ],
    ["Region", regionLabel(loc.region)],
    ["Last seen", loc.lastSeenAt ? `${ago(loc.lastSeenAt)} (${dateTime(loc.lastSeenAt)})` : "never — the probe has not connected yet"],
    [
      "Key",
      <span key="k" className="font-mono text-xs">
        {loc.keyPrefix}… (shown once when created)
      </span>,
    ],
    ["Created", dateTime(loc.createdAt)],
  ];
  return (
    <>
      {back}
      <PageHeader
        title={loc.name}
        action={
          <ConfirmAction
            small={false}
            action={deleteLocationAction}
            fields={{ workspaceId: String(wsId), id: String(loc.id) }}
            label="Delete location"
            title={`Delete “${loc.name}”?`}
            description="Its probe is refused from now on and its monitors stop running there. This cannot be undone."
            confirm="Delete"
          />
        }
      />
      <Card>
        <CardHeader title="Details" />
        <dl className="divide-y divide-zinc-100">
          {rows.map(([k, v]) => (
            <div key={k} className="grid grid-cols-[8rem_1fr] gap-4 px-5 py-3 text-sm">
              <dt className="text-zinc-500">{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      </Card>
    </>
  );
}
