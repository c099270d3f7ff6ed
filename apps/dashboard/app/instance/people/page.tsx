import { listAdminTokens, listInstanceAudit, listUsers } from "@vigil/core";
import { CreateAdminTokenForm, RevokeAdminTokenForm, UserDisableForm } from "../../../features/instance/instance-forms";
import { getDb } from "../../../lib/db";
import { ago, dateTime } from "../../../lib/format";
import { currentUser } from "../../../lib/session";
import { Card, CardHeader, Code, PageHeader, Table, td } from "../../../ui/ui";

export const dynamic = "force-dynamic";
export const metadata = { title: "People · Instance" };

export default async function People() {
  const db = getDb();
  const [users, tokens, audit, me] = await Promise.all([listUsers(db), listAdminTokens(db), listInstanceAudit(db, 50), currentUser()]);
  return (
    <>
      <PageHeader
        title="People, tokens and log"
        description="Everyone with an account here, the instance-admin tokens, and what instance admins changed."
      />
      <Card className="mb-6">
        <CardHeader title="Users" description="A disabled user cannot sign in; their sessions end at once." />
        <Table head={["User", "Since", ""]}>
          {users.map((u) => (
            <tr key={u.id}>
              <td className={`${td} break-all`}>
                {u.email ?? u.id}
                {u.disabledAt ? <span className="ml-1 text-xs text-red-700">(disabled)</span> : null}
              </td>
              <td className={`${td} whitespace-nowrap text-xs`}>{ago(u.createdAt)}</td>
              <td className={`${td} text-right`}>
                {u.id === me?.id ? (
                  <span className="text-xs text-zinc-500">you</span>
                ) : (
                  <UserDisableForm userId={u.id} disabled={u.disabledAt !== null} email={u.email ?? u.id} />
                )}
              </td>
            </tr>
          ))}
        </Table>
      </Card>
      <Card className="mb-6">
        <CardHeader
          title="Instance-admin tokens"
          description={
            <>
              For <Code>/v1/admin</Code> and <Code>vigil admin</Code>. The operator can also mint one:{" "}
              <Code>pnpm --filter @vigil/server admin token create</Code>.
            </>
          }
        />
        <div className="px-5 py-4">
          <CreateAdminTokenForm />
        </div>
        {tokens.length > 0 ? (
          <Table head={["Name", "Prefix", "Last used", ""]}>
            {tokens.map((t) => (
              <tr key={t.id}>
                <td className={td}>{t.name}</td>
                <td className={`${td} font-mono text-xs`}>{t.prefix}…</td>
                <td className={`${td} text-xs`}>{ago(t.lastUsedAt)}</td>
                <td className={`${td} text-right`}>
                  <RevokeAdminTokenForm tokenId={t.id} name={t.name} />
                </td>
              </tr>
            ))}
          </Table>
        ) : null}
      </Card>
      <Card>
        <CardHeader title="Instance audit log" description="Latest 50 changes by instance admins." />
        {audit.length === 0 ? (
          <p className="px-5 py-4 text-sm text-zinc-500">Nothing yet.</p>
        ) : (
          <Table head={["When", "Who", "What", "Target"]}>
            {audit.map((a) => (
              <tr key={a.id}>
                <td className={`${td} whitespace-nowrap text-xs`}>{dateTime(a.createdAt)}</td>
                <td className={`${td} break-all font-mono text-xs`}>{a.actor}</td>
                <td className={`${td} font-mono text-xs`}>{a.action}</td>
                <td className={`${td} break-all font-mono text-xs`}>
                  {a.targetType} {a.targetId}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </>
  );
}
