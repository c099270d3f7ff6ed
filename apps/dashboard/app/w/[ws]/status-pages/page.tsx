import { limitsOf, listStatusPages, listStatusReports } from "@vigil/core";
import { ExternalLink, Lock, PanelsTopLeft } from "lucide-react";
import Link from "next/link";
import { CreatePageForm } from "../../../../features/status-pages/page-forms";
import { getDb } from "../../../../lib/db";
import { getEnv } from "../../../../lib/env";
import { ago } from "../../../../lib/format";
import { memberOf } from "../../../../lib/session";
import { Badge, Card, CardHeader, Code, Empty, Notice, PageHeader, Table, td } from "../../../../ui/ui";

export const metadata = { title: "Status pages" };

export default async function StatusPages({ params }: { params: Promise<{ ws: string }> }) {
  const m = await memberOf((await params).ws);
  const id = m.workspace.id;
  const [pages, open] = await Promise.all([listStatusPages(getDb(), id), listStatusReports(getDb(), id, { open: true, limit: 1000 })]);
  const limit = limitsOf(m.workspace).limits["status-pages"];
  const publicUrl = getEnv().STATUS_PAGE_URL;
  const now = Date.now();
  return (
    <>
      <PageHeader
        title="Status pages"
        description="Public pages that tell your users how your services are doing: components, incidents and maintenance."
      />
      {m.role === "viewer" ? null : (
        <Card className="mb-6">
          <CardHeader
            title="New status page"
            description={`${pages.length.toLocaleString("en")} of ${limit.toLocaleString("en")} allowed by this workspace's plan (limit “status-pages”).`}
          />
          <div className="px-5 py-4">
            {pages.length >= limit ? (
              <div className="mb-4">
                <Notice>
                  This workspace has all the status pages its plan allows (limit <Code>status-pages</Code> is {limit.toLocaleString("en")}
                  ).
                </Notice>
              </div>
            ) : null}
            <CreatePageForm workspaceId={id} />
          </div>
        </Card>
      )}
      <Card>
        <CardHeader title="Pages" />
        {pages.length === 0 ? (
          <Empty icon={<PanelsTopLeft className="size-5" aria-hidden />} title="No status pages yet">
            Create one above, then add components and link them to your monitors.
          </Empty>
        ) : (
          <Table head={["Page", "Public address", "Incidents", "Updated", ""]}>
            {pages.map((p) => {
              const incidents = open.filter((r) => r.pageId === p.id).length;
              return (
                <tr key={p.id} data-testid={`status-page-${p.slug}`}>
                  <td className={td}>
                    <Link href={`/w/${id}/status-pages/${p.id}`} className="font-medium text-indigo-700 hover:underline">
                      {p.title}
                    </Link>
                    <div className="mt-1 flex flex-wrap gap-1">
                      {p.published ? null : <Badge tone="amber">unpublished</Badge>}
                      {p.passwordProtected ? (
                        <Badge>
                          <Lock className="size-3" aria-hidden /> password
                        </Badge>
                      ) : null}
                      {p.customDomain ? (
                        <Badge tone={p.domainVerification?.state === "verified" ? "indigo" : "amber"}>
                          {p.customDomain}
                          {p.domainVerification?.state === "verified" ? "" : " · not verified"}
                        </Badge>
                      ) : null}
                    </div>
                  </td>
                  <td className={`${td} font-mono text-xs`}>
                    <a
                      href={`${publicUrl}/${p.slug}`}
                      target="_blank"
                      rel="noreferrer"
                      className="inline-flex items-center gap-1 text-zinc-700 hover:underline"
                    >
                      {publicUrl.replace(/^https?:\/\//, "")}/{p.slug}
                      <ExternalLink className="size-3" aria-label="opens in a new tab" />
                    </a>
                  </td>
                  <td className={td}>
                    {incidents > 0 ? <Badge tone="red">{incidents} open</Badge> : <Badge tone="green">none open</Badge>}
                  </td>
                  <td className={`${td} text-zinc-600`}>{ago(p.updatedAt, now)}</td>
                  <td className={`${td} text-right`}>
                    <Link href={`/w/${id}/status-pages/${p.id}`} className="text-sm font-medium text-zinc-700 hover:underline">
                      Edit
                    </Link>
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </Card>
    </>
  );
}
