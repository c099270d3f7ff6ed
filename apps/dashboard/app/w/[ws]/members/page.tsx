import { canManage, limitsOf, listInvitations, listMembers } from "@vigil/core";
import { ConfirmAction } from "../../../../components/confirm";
import { InviteForm } from "../../../../components/forms";
import { Badge, Card, CardHeader, Code, PageHeader, Table, td } from "../../../../components/ui";
import { removeMemberAction, revokeInvitationAction } from "../../../../lib/actions";
import { getDb } from "../../../../lib/db";
import { date } from "../../../../lib/format";
import { memberOf } from "../../../../lib/session";

export const metadata = { title: "Members" };

const roleTone = { owner: "indigo", admin: "green", member: "zinc" } as const;

export default async function Members({ params }: { params: Promise<{ ws: string }> }) {
  const m = await memberOf((await params).ws);
  const id = m.workspace.id;
  const db = getDb();
  const [members, invitations] = await Promise.all([listMembers(db, id), listInvitations(db, id)]);
  const limit = limitsOf(m.workspace).limits.members;
  const manage = canManage(m.role);
  const owners = members.filter((x) => x.role === "owner").length;
  return (
    <>
      <PageHeader
        title="Members"
        description="Owners and admins manage keys, locations, channels and members; members can look but not change them."
      />
      {manage ? (
        <Card className="mb-6">
          <CardHeader
            title="Invite someone"
            description={
              <>
                {members.length + invitations.length} of {limit === "Unlimited" ? "unlimited" : limit} seats used (limit{" "}
                <Code>members</Code>; pending invitations count).
              </>
            }
          />
          <div className="px-5 py-4">
            <InviteForm workspaceId={id} />
          </div>
        </Card>
      ) : null}
      <Card className="mb-6">
        <CardHeader title="People" description={`${members.length} member${members.length === 1 ? "" : "s"}`} />
        <Table head={["Person", "Role", "Joined", ""]}>
          {members.map((p) => {
            const removable = manage && p.userId !== m.user.id && (p.role !== "owner" || (m.role === "owner" && owners > 1));
            return (
              <tr key={p.userId}>
                <td className={td}>
                  <span className="font-medium">{p.name || p.email}</span>
                  {p.name ? <span className="block text-xs text-zinc-500">{p.email}</span> : null}
                  {p.userId === m.user.id ? <span className="ml-2 text-xs text-zinc-400">(you)</span> : null}
                </td>
                <td className={td}>
                  <Badge tone={roleTone[p.role]}>{p.role}</Badge>
                </td>
                <td className={td}>{date(p.joinedAt)}</td>
                <td className={`${td} text-right`}>
                  {removable ? (
                    <ConfirmAction
                      action={removeMemberAction}
                      fields={{ workspaceId: String(id), userId: p.userId }}
                      label="Remove"
                      title={`Remove ${p.email}?`}
                      description="They lose access to this workspace at once. You can invite them again later."
                      confirm="Remove"
                    />
                  ) : null}
                </td>
              </tr>
            );
          })}
        </Table>
      </Card>
      {invitations.length > 0 ? (
        <Card>
          <CardHeader title="Pending invitations" />
          <Table head={["Email", "Role", "Expires", ""]}>
            {invitations.map((i) => (
              <tr key={i.id}>
                <td className={`${td} font-medium`}>{i.email}</td>
                <td className={td}>
                  <Badge tone={roleTone[i.role]}>{i.role}</Badge>
                </td>
                <td className={td}>{date(i.expiresAt)}</td>
                <td className={`${td} text-right`}>
                  {manage ? (
                    <ConfirmAction
                      action={revokeInvitationAction}
                      fields={{ workspaceId: String(id), id: String(i.id) }}
                      label="Cancel"
                      title={`Cancel the invitation to ${i.email}?`}
                      description="The link they received stops working."
                      confirm="Cancel invitation"
                    />
                  ) : null}
                </td>
              </tr>
            ))}
          </Table>
        </Card>
      ) : null}
    </>
  );
}
