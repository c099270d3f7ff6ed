import { listInstanceInvitations, listInstanceWorkspaces, signupMode } from "@vigil/core";
import Link from "next/link";
import { n, StateBadge } from "../../features/instance/instance-bits";
import { CreateForForm, InviteToInstanceForm } from "../../features/instance/instance-forms";
import { getDb } from "../../lib/db";
import { getEnv } from "../../lib/env";
import { rules } from "../../lib/instance-rules";
import { Card, CardHeader, CardSection, Code, PageHeader, Table, td } from "../../ui/ui";

export const dynamic = "force-dynamic";
export const metadata = { title: "Instance" };

const MODE_TEXT = {
  closed: "closed: only invited addresses and instance admins sign in.",
  invite: "by invitation: addresses you invite below get a workspace at their first sign-in.",
  open: "open: anyone who can reach the dashboard signs up and gets a workspace.",
} as const;

export default async function Instance() {
  const db = getDb();
  // Read on every request, never cached: a limit written by SQL shows here at once.
  const [workspaces, mode, invitations] = await Promise.all([
    listInstanceWorkspaces(db),
    signupMode(db, rules()),
    listInstanceInvitations(db),
  ]);
  const env = getEnv();
  return (
    <>
      <PageHeader
        title="Instance"
        description={
          <>
            Every workspace on this Vigil instance. Sign-up is {MODE_TEXT[mode]} New open sign-ups get the{" "}
            <Code>{env.VIGIL_SIGNUP_LIMITS}</Code> preset (set by <Code>VIGIL_SIGNUP</Code> and <Code>VIGIL_SIGNUP_LIMITS</Code>).
          </>
        }
      />
      <Card className="mb-6">
        <CardHeader title="Workspaces" description={`${workspaces.length} in all`} />
        <Table head={["Workspace", "Members", "Monitors", "Plan", "State"]}>
          {workspaces.map((w) => (
            <tr key={w.id}>
              <td className={td}>
                <Link href={`/instance/workspaces/${w.id}`} className="font-medium text-indigo-700 hover:underline">
                  {w.name ?? `Workspace ${w.id}`}
                </Link>
                <span className="block text-xs text-zinc-500">id {w.id}</span>
              </td>
              <td className={`${td} text-xs`}>
                {w.members.length === 0
                  ? "none yet"
                  : w.members.map((m) => (
                      <span key={m.userId} className="block break-all">
                        {m.email}{" "}
                        <span className="text-zinc-500">
                          ({m.role}
                          {m.disabled ? ", disabled" : ""})
                        </span>
                      </span>
                    ))}
              </td>
              <td className={`${td} tabular-nums`}>
                {n(w.monitors)} / {n(w.limits.monitors)}
              </td>
              <td className={td}>{w.plan ?? "—"}</td>
              <td className={td}>
                <StateBadge state={w.state} />
              </td>
            </tr>
          ))}
        </Table>
      </Card>
      <CardSection
        title="Create a workspace for someone"
        description="They own it: at once when they already have an account, else through an invitation link (mailed when mail is set up)."
        className="mb-6"
      >
        <CreateForForm />
      </CardSection>
      <CardSection
        title="Invite to the instance"
        description={
          mode === "invite"
            ? "Their first sign-in creates their own workspace with the preset you pick."
            : "Used when VIGIL_SIGNUP=invite; with the current rule, create a workspace for them above instead."
        }
      >
        <InviteToInstanceForm />
        {invitations.length > 0 ? (
          <ul className="mt-4 grid gap-1 text-sm">
            {invitations.map((i) => (
              <li key={i.email} className="break-all">
                {i.email} — {i.preset}, {i.usedAt ? "signed up" : "not signed in yet"}
              </li>
            ))}
          </ul>
        ) : null}
      </CardSection>
    </>
  );
}
