import { canManage, limitsOf, listInvitations, listMembers, MEMBER_ROLES as ROLES, removalPreview } from "@vigil/core";
import { RoleForm } from "../../../../features/account/account-forms";
import { removeMemberAction, revokeInvitationAction } from "../../../../features/members/actions";
import { InviteForm } from "../../../../features/members/invite-forms";
import { getDb } from "../../../../lib/db";
import { date } from "../../../../lib/format";
import { memberOf } from "../../../../lib/session";
import { ConfirmAction } from "../../../../ui/confirm";
import { Badge, Card, CardHeader, Code, PageHeader, Table, td } from "../../../../ui/ui";

export const metadata = { title: "Members" };

const roleTone = { owner: "indigo", admin: "green", member: "zinc", viewer: "amber" } as const;

export default async function Members({ params }: { params: Promise<{ ws: string }> }) {
  const m = await memberOf((await params).ws);
  const id = m.workspace.id;
  const db = getDb();
  const [members, invitations] = await Promise.all([listMembers(db, id), listInvitations(db, id)]);
  const limit = limitsOf(m.workspace).limits.members;
  const manage = canManage(m.role);
  const owners = members.filter((x) => x.role === "owner").length;
  const removable = (p: (typeof members)[number]) =>
    manage && p.userId !== m.user.id && (p.role !== "owner" || (m.role === "owner" && owners > 1));
  // Owners and admins change others' roles up to their own; only an owner touches an owner.
  const mine = ROLES.indexOf(m.role);
  const roleChoices = (p: (typeof members)[number]) =>
    manage && p.userId !== m.user.id && ROLES.indexOf(p.role) >= mine ? ROLES.slice(mine) : [];
  const previews = new Map(
    await Promise.all(members.filter(removable).map(async (p) => [p.userId, await removalPreview(db, id, p.userId)] as const)),
  );
  return (
    <>
      <PageHeader
        title="Members"
        description="Owners and admins manage keys, locations and members; members change monitors, channels and status pages; viewers read everything and change nothing."
      />
      {manage ? (
        <Card className="mb-6">
          <CardHeader
            title="Invite someone"
            description={
              <>
                {members.length + invitations.length} of {limit === "Unlimited" ? "unlimited" : limit.toLocaleString("en")} seats used
                (limit <Code>members</Code>; pending invitations count).
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
            const preview = previews.get(p.userId);
            return (
              <tr key={p.userId}>
                <td className={td}>
                  <span className="font-medium">{p.name || p.email}</span>
                  {p.name ? <span className="block text-xs text-zinc-500">{p.email}</span> : null}
                  {p.userId === m.user.id ? <span className="ml-2 text-xs text-zinc-400">(you)</span> : null}
                </td>
                <td className={td}>
                  {roleChoices(p).length > 1 ? (
                    <RoleForm workspaceId={id} userId={p.userId} role={p.role} choices={roleChoices(p)} />
                  ) : (
                    <Badge tone={roleTone[p.role]}>{p.role}</Badge>
                  )}
                </td>
                <td className={td}>{date(p.joinedAt)}</td>
                <td className={`${td} text-right`}>
                  {preview ? (
                    <ConfirmAction
                      action={removeMemberAction}
                      fields={{ workspaceId: String(id), userId: p.userId }}
                      label="Remove"
                      title={`Remove ${p.email}?`}
                      description="They lose access to this workspace at once. You can invite them again later."
                      confirm="Remove"
                    >
                      <RemovalList preview={preview} />
                    </ConfirmAction>
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

/** What removing a member also revokes, listed in the confirmation before anyone confirms. */
function RemovalList({ preview }: { preview: Awaited<ReturnType<typeof removalPreview>> }) {
  const { keys, invitations } = preview;
  if (keys.length === 0 && invitations.length === 0) {
    return <p className="mt-3 text-sm text-zinc-600">They created no API keys and sent no pending invitations.</p>;
  }
  return (
    <div className="mt-4 space-y-3 text-sm text-left" data-testid="removal-revokes">
      {keys.length > 0 ? (
        <div>
          <p className="font-medium text-zinc-900">
            {keys.length === 1 ? "The API key they created is revoked:" : `The ${keys.length} API keys they created are revoked:`}
          </p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-zinc-700">
            {keys.map((k) => (
              <li key={k.id}>
                {k.name} <Code>{k.prefix}…</Code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {invitations.length > 0 ? (
        <div>
          <p className="font-medium text-zinc-900">
            {invitations.length === 1
              ? "The invitation they sent is withdrawn:"
              : `The ${invitations.length} invitations they sent are withdrawn:`}
          </p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-zinc-700">
            {invitations.map((i) => (
              <li key={i.id}>
                {i.email} ({i.role})
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
