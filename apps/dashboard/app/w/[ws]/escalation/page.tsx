import { listChannels, listEscalationPolicies, listMonitors } from "@vigil/core";
import { Pencil, Plus, Repeat, Siren } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { deletePolicyAction } from "../../../../features/alerts/actions";
import { EscalationPolicyForm } from "../../../../features/escalation/escalation-form";
import { emptyPolicyDraft, policyDraftOf, stepDelay } from "../../../../features/escalation/escalation-model";
import { getDb } from "../../../../lib/db";
import { memberOf, type WorkspacePageProps } from "../../../../lib/session";
import { ConfirmAction } from "../../../../ui/confirm";
import { Badge, buttonClass, Card, CardHeader, Empty, Notice, PageHeader } from "../../../../ui/ui";

export const metadata = { title: "Escalation" };

/** Audience: any member reads; members and above create, edit and delete (`?new`, `?edit=<id>`). */
export default async function Escalation({ params, searchParams }: WorkspacePageProps) {
  const m = await memberOf((await params).ws);
  const sp = await searchParams;
  const ws = m.workspace.id;
  const db = getDb();
  const [policies, channels, monitors] = await Promise.all([listEscalationPolicies(db, ws), listChannels(db, ws), listMonitors(db, ws)]);
  const canEdit = m.role !== "viewer";
  const editing = sp.edit !== undefined ? policies.find((p) => String(p.id) === sp.edit) : undefined;
  if (sp.edit !== undefined && !editing) notFound();
  const creating = sp.new !== undefined;
  const monitorName = new Map(monitors.map((x) => [x.id, x.name || x.key || `#${x.id}`]));
  const channelKinds = channels.map((c) => ({ name: c.name, kind: c.kind, enabled: c.enabled }));
  const saved = policies.find((p) => String(p.id) === sp.saved);
  return (
    <>
      <PageHeader
        title="Escalation"
        description="Who hears, and when, while an alert stays unacknowledged. Assign a policy to a monitor in its form."
        action={
          canEdit && !creating ? (
            <Link href={`/w/${ws}/escalation?new`} className={buttonClass()}>
              <Plus className="size-4" aria-hidden /> New policy
            </Link>
          ) : undefined
        }
      />
      {saved ? (
        <div className="mb-4" data-testid="saved">
          <Notice tone="indigo">Policy “{saved.name}” saved.</Notice>
        </div>
      ) : null}
      {sp.deleted ? (
        <div className="mb-4">
          <Notice tone="indigo">Policy deleted; its monitors keep alerting their own channels.</Notice>
        </div>
      ) : null}

      {canEdit && (creating || editing) ? (
        <Card className="mb-6">
          <CardHeader
            title={editing ? `Edit ${editing.name}` : "New escalation policy"}
            description={editing ? "Saving replaces the steps; monitors keep the policy." : undefined}
          />
          <EscalationPolicyForm
            key={editing?.id ?? "new"}
            workspaceId={ws}
            policyId={editing?.id}
            initial={editing ? policyDraftOf(editing) : emptyPolicyDraft()}
            channels={channelKinds}
          />
        </Card>
      ) : null}

      {policies.length === 0 ? (
        creating ? null : (
          <Card>
            <Empty icon={<Siren className="size-5" aria-hidden />} title="No escalation policies yet">
              A policy sends an alert nobody acknowledges to more people as time passes: the on-call first, the team lead after 15 minutes.{" "}
              {canEdit ? (
                <Link href={`/w/${ws}/escalation?new`} className="font-medium text-indigo-700 hover:underline">
                  New policy
                </Link>
              ) : null}
            </Empty>
          </Card>
        )
      ) : (
        <div className="grid gap-4">
          {policies.map((p) => (
            <Card key={p.id}>
              <div data-testid={`policy-${p.id}`}>
                <CardHeader
                  title={p.name}
                  description={
                    p.monitors.length === 0 ? (
                      "Used by no monitor yet."
                    ) : (
                      <>
                        Used by{" "}
                        {p.monitors.map((id, i) => (
                          <span key={id}>
                            {i > 0 ? ", " : ""}
                            <Link href={`/w/${ws}/monitors/${id}`} className="text-indigo-700 hover:underline">
                              {monitorName.get(id) ?? `#${id}`}
                            </Link>
                          </span>
                        ))}
                      </>
                    )
                  }
                  action={
                    canEdit ? (
                      <div className="flex items-center gap-2">
                        <Link href={`/w/${ws}/escalation?edit=${p.id}`} className={buttonClass("secondary", "h-8 px-2.5 text-xs")}>
                          <Pencil className="size-3.5" aria-hidden /> Edit
                        </Link>
                        <ConfirmAction
                          action={deletePolicyAction}
                          fields={{ workspaceId: String(ws), policyId: String(p.id) }}
                          label="Delete"
                          title={`Delete ${p.name}?`}
                          description={`${p.monitors.length === 0 ? "No monitor uses it." : `${p.monitors.length} monitor${p.monitors.length === 1 ? "" : "s"} will keep alerting only their own channels.`} The deletion is recorded in the audit log.`}
                          confirm="Delete policy"
                        />
                      </div>
                    ) : undefined
                  }
                />
                <ol className="grid gap-2 px-5 py-4">
                  {p.steps.map((s, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: steps are ordered by position
                    <li key={i} className="flex flex-wrap items-center gap-2 text-sm" data-testid="step">
                      <span className="inline-flex size-6 items-center justify-center rounded-full bg-zinc-100 text-xs font-semibold text-zinc-700">
                        {i + 1}
                      </span>
                      <span className="w-24 text-zinc-600">{stepDelay(s.afterMinutes)}</span>
                      {s.channels.length === 0 ? (
                        <Badge tone="amber">no channel left: this step notifies nobody</Badge>
                      ) : (
                        s.channels.map((c) => <Badge key={c}>{c}</Badge>)
                      )}
                    </li>
                  ))}
                  <li className="mt-1 flex items-center gap-2 text-xs text-zinc-500">
                    <Repeat className="size-3.5" aria-hidden />
                    {p.repeatLastEveryMinutes === null
                      ? "The last step is sent once."
                      : `The last step repeats every ${p.repeatLastEveryMinutes} min until someone acknowledges.`}
                  </li>
                </ol>
              </div>
            </Card>
          ))}
        </div>
      )}
    </>
  );
}
