import { listComponents, listMonitors } from "@vigil/core";
import { Boxes } from "lucide-react";
import { deleteComponentAction, deleteGroupAction } from "../../../../../../features/status-pages/actions";
import { CreateComponentForm, EditComponentForm, MoveButtons } from "../../../../../../features/status-pages/component-forms";
import { CreateGroupForm, RenameGroupForm } from "../../../../../../features/status-pages/group-forms";
import { editorPage } from "../../../../../../features/status-pages/status-page";
import { getDb } from "../../../../../../lib/db";
import { ConfirmAction } from "../../../../../../ui/confirm";
import { Badge, Card, CardSection, Empty } from "../../../../../../ui/ui";

export const metadata = { title: "Status page components" };

const STATIC_TEXT: Record<string, [string, "green" | "amber" | "red"]> = {
  operational: ["Operational", "green"],
  degraded: ["Degraded performance", "amber"],
  partial_outage: ["Partial outage", "amber"],
  major_outage: ["Major outage", "red"],
};
const MONITOR_TONE: Record<string, "green" | "amber" | "red" | "zinc"> = { ok: "green", degraded: "amber", error: "red" };

export default async function Components({ params }: { params: Promise<{ ws: string; id: string }> }) {
  const { ws, id } = await params;
  const { m, page } = await editorPage(ws, id);
  const wsId = m.workspace.id;
  const [{ groups, components }, monitors] = await Promise.all([listComponents(getDb(), wsId, page.id), listMonitors(getDb(), wsId)]);
  const monitorById = new Map(monitors.map((x) => [x.id, x]));
  const groupChoices = groups.map((g) => ({ id: g.id, name: g.name }));
  const monitorChoices = monitors.map((x) => ({ id: x.id, name: x.name || `Monitor ${x.id}` }));
  const sections = [
    ...groups.map((g, i) => ({ group: g, first: i === 0, last: i === groups.length - 1 })),
    { group: null, first: true, last: true },
  ];
  return (
    <div className="grid gap-6">
      {components.length === 0 && groups.length === 0 ? (
        <Card>
          <Empty icon={<Boxes className="size-5" aria-hidden />} title="No components yet">
            A component is a row on the public page: link it to a monitor and its status follows the checks, or set it by hand.
          </Empty>
        </Card>
      ) : null}
      {sections.map(({ group, first, last }) => {
        const mine = components.filter((c) => c.groupId === (group?.id ?? null));
        if (!group && mine.length === 0) return null;
        const label = group?.name ?? "Ungrouped";
        return (
          <Card key={group?.id ?? "none"}>
            <div
              className="flex flex-wrap items-center justify-between gap-3 border-b border-zinc-100 px-5 py-3"
              data-testid={`group-${label}`}
            >
              {group ? (
                <RenameGroupForm workspaceId={wsId} groupId={group.id} name={group.name} />
              ) : (
                <h2 className="text-base font-semibold">Ungrouped</h2>
              )}
              {group ? (
                <div className="flex items-center gap-2">
                  <MoveButtons
                    workspaceId={wsId}
                    pageId={page.id}
                    what="groups"
                    id={group.id}
                    name={`group ${group.name}`}
                    first={first}
                    last={last}
                  />
                  <ConfirmAction
                    action={deleteGroupAction}
                    fields={{ workspaceId: String(wsId), groupId: String(group.id) }}
                    label="Delete group"
                    title={`Delete the group “${group.name}”?`}
                    description="Its components stay on the page, ungrouped."
                    confirm="Delete group"
                  />
                </div>
              ) : null}
            </div>
            {mine.length === 0 ? (
              <p className="px-5 py-4 text-sm text-zinc-500">No components in this group yet; add one below and choose this group.</p>
            ) : (
              <ul className="divide-y divide-zinc-100" aria-label={`Components in ${label}`}>
                {mine.map((c, i) => {
                  const mon = c.monitorId ? monitorById.get(c.monitorId) : undefined;
                  const [statusText, tone] = STATIC_TEXT[c.staticStatus] ?? ["Operational", "green"];
                  return (
                    <li key={c.id} className="px-5 py-3" data-testid={`component-${c.name}`}>
                      <div className="flex flex-wrap items-center gap-3">
                        <MoveButtons
                          workspaceId={wsId}
                          pageId={page.id}
                          what="components"
                          id={c.id}
                          name={c.name}
                          first={i === 0}
                          last={i === mine.length - 1}
                        />
                        <span className="font-medium">{c.name}</span>
                        {c.monitorId ? (
                          <Badge tone={MONITOR_TONE[mon?.health ?? ""] ?? "zinc"}>
                            monitor: {mon ? mon.name || `#${mon.id}` : "deleted"} · {mon?.health ?? "—"}
                          </Badge>
                        ) : (
                          <Badge tone={tone}>static · {statusText}</Badge>
                        )}
                        <div className="ml-auto">
                          <ConfirmAction
                            action={deleteComponentAction}
                            fields={{ workspaceId: String(wsId), componentId: String(c.id) }}
                            label="Delete"
                            title={`Delete “${c.name}”?`}
                            description="It disappears from the public page; reports that named it keep their text."
                            confirm="Delete component"
                          />
                        </div>
                      </div>
                      <details className="mt-2 group">
                        <summary className="cursor-pointer text-sm text-zinc-600 hover:text-zinc-900">Edit {c.name}</summary>
                        <div className="mt-3 rounded-lg border border-zinc-200 bg-zinc-50/60 p-4">
                          <EditComponentForm workspaceId={wsId} component={c} groups={groupChoices} monitors={monitorChoices} />
                        </div>
                      </details>
                    </li>
                  );
                })}
              </ul>
            )}
          </Card>
        );
      })}
      <CardSection title="Add a component" description="Monitor-linked components follow their checks; static ones you set by hand.">
        <CreateComponentForm workspaceId={wsId} pageId={page.id} groups={groupChoices} monitors={monitorChoices} />
      </CardSection>
      <CardSection title="Add a group" description="Groups collect components under a heading, e.g. “APIs” or “Europe”.">
        <CreateGroupForm workspaceId={wsId} pageId={page.id} />
      </CardSection>
    </div>
  );
}
