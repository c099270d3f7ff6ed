import { canManage, listApiKeys } from "@vigil/core";
import { KeyRound } from "lucide-react";
import { revokeApiKeyAction } from "../../../../features/keys/actions";
import { CreateApiKeyForm } from "../../../../features/keys/create-api-key-form";
import { getDb } from "../../../../lib/db";
import { ago, date } from "../../../../lib/format";
import { memberOf } from "../../../../lib/session";
import { ConfirmAction } from "../../../../ui/confirm";
import { NeedsAdmin } from "../../../../ui/needs-admin";
import { Badge, Card, CardHeader, CardSection, Empty, PageHeader, Table, td } from "../../../../ui/ui";

export const metadata = { title: "API keys" };

export default async function ApiKeys({ params }: { params: Promise<{ ws: string }> }) {
  const m = await memberOf((await params).ws);
  const id = m.workspace.id;
  const header = (
    <PageHeader
      title="API keys"
      description="Keys let the vigil CLI and your scripts use the REST API as this workspace. Each is shown once."
    />
  );
  if (!canManage(m.role)) {
    return (
      <>
        {header}
        <NeedsAdmin what="API keys" role={m.role} />
      </>
    );
  }
  const keys = (await listApiKeys(getDb(), id)).sort(
    (a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null) || b.createdAt - a.createdAt,
  );
  const now = Date.now();
  return (
    <>
      {header}
      <CardSection title="New key" className="mb-6">
        <CreateApiKeyForm workspaceId={id} />
      </CardSection>
      <Card>
        <CardHeader title="Keys" description={`${keys.filter((k) => k.revokedAt === null).length} active`} />
        {keys.length === 0 ? (
          <Empty icon={<KeyRound className="size-5" aria-hidden />} title="No API keys yet">
            Create one above to use the CLI.
          </Empty>
        ) : (
          <Table head={["Name", "Key", "Scopes", "Created", "Last used", ""]}>
            {keys.map((k) => (
              <tr key={k.id} data-testid={`key-${k.id}`} className={k.revokedAt ? "text-zinc-400" : undefined}>
                <td className={`${td} font-medium`}>{k.name}</td>
                <td className={`${td} font-mono text-xs`}>{k.prefix}…</td>
                <td className={td} data-testid="scopes">
                  <span className="flex flex-wrap gap-1">
                    {k.scopes.map((s) => (
                      <Badge key={s} tone={s === "read" ? "zinc" : "indigo"}>
                        {s}
                      </Badge>
                    ))}
                  </span>
                </td>
                <td className={td}>{date(k.createdAt)}</td>
                <td className={td}>{ago(k.lastUsedAt, now)}</td>
                <td className={`${td} text-right`}>
                  {k.revokedAt ? (
                    <Badge>revoked {date(k.revokedAt)}</Badge>
                  ) : (
                    <ConfirmAction
                      action={revokeApiKeyAction}
                      fields={{ workspaceId: String(id), id: String(k.id) }}
                      label="Revoke"
                      title={`Revoke “${k.name}”?`}
                      description="Anything using this key is refused from its next request. This cannot be undone."
                      confirm="Revoke key"
                    />
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </>
  );
}
