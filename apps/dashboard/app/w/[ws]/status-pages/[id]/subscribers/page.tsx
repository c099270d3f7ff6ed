import { canManage, limitsOf, listSubscribers } from "@vigil/core";
import { Download, Mail } from "lucide-react";
import { removeSubscriberAction } from "../../../../../../features/status-pages/actions";
import { editorPage } from "../../../../../../features/status-pages/status-page";
import { SubscriberState } from "../../../../../../features/status-pages/subscriber-state";
import { getDb } from "../../../../../../lib/db";
import { date } from "../../../../../../lib/format";
import { ConfirmAction } from "../../../../../../ui/confirm";
import { buttonClass, Card, CardHeader, Code, Empty, Notice, Table, td } from "../../../../../../ui/ui";

export const metadata = { title: "Subscribers" };

/** Endpoint subscribers: their URL is a credential (a Slack webhook) and is not shown. */
const ENDPOINT_LABEL = { webhook: "Webhook (signed JSON)", slack: "Slack channel" } as const;

export default async function Subscribers({ params }: { params: Promise<{ ws: string; id: string }> }) {
  const { ws, id } = await params;
  const { m, page, base } = await editorPage(ws, id);
  const wsId = m.workspace.id;
  const subscribers = await listSubscribers(getDb(), wsId, page.id);
  const confirmed = subscribers.filter((s) => s.state === "confirmed").length;
  const allowed = limitsOf(m.workspace).limits["status-subscribers"];
  // Subscribers' addresses are personal data: members see how many there are, owners and admins who.
  const manage = canManage(m.role);
  return (
    <Card>
      <CardHeader
        title="Subscribers"
        description={`${confirmed} confirmed of ${subscribers.length}. They get a mail for every new report, update and maintenance window.`}
        action={
          manage && subscribers.length > 0 ? (
            <a href={`${base}/subscribers/export`} className={buttonClass("secondary")} download>
              <Download className="size-4" aria-hidden />
              Export CSV
            </a>
          ) : null
        }
      />
      {allowed ? null : (
        <div className="px-5 pt-4">
          <Notice>
            Visitors cannot subscribe: subscriptions are not in this workspace's plan (limit <Code>status-subscribers</Code> is off).
          </Notice>
        </div>
      )}
      {!manage && subscribers.length > 0 ? (
        <div className="px-5 py-4 text-sm text-zinc-600" data-testid="subscribers-hidden">
          Only owners and admins see subscribers' e-mail addresses (your role: member).
        </div>
      ) : subscribers.length === 0 ? (
        <Empty icon={<Mail className="size-5" aria-hidden />} title="No subscribers yet">
          Visitors subscribe with the form at the bottom of the public page; each confirms by mail first.
        </Empty>
      ) : (
        <Table head={["Subscriber", "State", "Since", ""]}>
          {subscribers.map((s) => (
            <tr key={s.id} data-testid={`subscriber-${s.email || s.id}`}>
              <td className={`${td} font-medium`}>{s.channel === "email" ? s.email : ENDPOINT_LABEL[s.channel]}</td>
              <td className={td}>
                <SubscriberState subscriber={s} />
              </td>
              <td className={`${td} text-zinc-600`}>{date(s.confirmedAt ?? s.createdAt)}</td>
              <td className={`${td} text-right`}>
                <ConfirmAction
                  action={removeSubscriberAction}
                  fields={{ workspaceId: String(wsId), subscriberId: String(s.id) }}
                  label="Remove"
                  title={`Remove ${s.channel === "email" ? s.email : ENDPOINT_LABEL[s.channel]}?`}
                  description="They get no more mail from this page. They may subscribe again from the page."
                  confirm="Remove subscriber"
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}
