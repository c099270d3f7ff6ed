import { limitsOf } from "@vigil/core";
import { isChannelKind } from "@vigil/notifier";
import { ChevronLeft } from "lucide-react";
import Link from "next/link";
import { ChannelForm } from "../../../../../features/channels/channel-form";
import { KindIcon } from "../../../../../features/channels/channel-kind";
import { allKinds, kindSpec } from "../../../../../features/channels/channel-model";
import { memberOf } from "../../../../../lib/session";
import { Badge, Card, CardHeader, Code, Notice, PageHeader } from "../../../../../ui/ui";

export const metadata = { title: "New notification channel" };

export default async function NewChannel({
  params,
  searchParams,
}: {
  params: Promise<{ ws: string }>;
  searchParams: Promise<{ kind?: string }>;
}) {
  const m = await memberOf((await params).ws);
  const wsId = m.workspace.id;
  const { kind } = await searchParams;
  const limits = limitsOf(m.workspace).limits as Record<string, unknown>;
  const missing = (needs: string[]) => ["notifications", ...needs].filter((k) => limits[k] === false);
  const back = (href: string, label: string) => (
    <Link href={href} className="mb-3 inline-flex items-center gap-1 text-sm text-zinc-500 hover:text-zinc-900">
      <ChevronLeft className="size-4" aria-hidden /> {label}
    </Link>
  );

  if (kind === undefined || !isChannelKind(kind)) {
    return (
      <>
        {back(`/w/${wsId}/notifications`, "Notifications")}
        <PageHeader
          title="New notification channel"
          description="Where should alerts go? Pick a kind; you can send a test before attaching monitors."
        />
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Channel kinds">
          {allKinds().map((k) => {
            const off = missing(k.needs);
            return (
              <li key={k.kind}>
                <Link
                  href={`/w/${wsId}/notifications/new?kind=${k.kind}`}
                  className="flex h-full gap-3 rounded-xl border border-zinc-200 bg-white p-4 shadow-xs transition-colors hover:border-zinc-400 focus-visible:border-zinc-900"
                >
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-zinc-100 text-zinc-600">
                    <KindIcon kind={k.kind} />
                  </span>
                  <span className="grid gap-1">
                    <span className="font-medium">{k.title}</span>
                    <span className="text-sm text-zinc-500">{k.description}</span>
                    {off.length > 0 ? (
                      <span>
                        <Badge tone="amber">not in plan: {off.join(", ")}</Badge>
                      </span>
                    ) : null}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </>
    );
  }

  const spec = kindSpec(kind);
  const off = missing(spec.needs);
  return (
    <>
      {back(`/w/${wsId}/notifications/new`, "All channel kinds")}
      <PageHeader title={`New ${spec.title} channel`} description={spec.description} />
      <Card className="max-w-2xl">
        <CardHeader title="Settings" description="Secrets are write-only: once saved they are shown as set or not set, never again." />
        <div className="px-5 py-5">
          {off.length > 0 ? (
            <div className="mb-5">
              <Notice>
                This workspace's limits do not include{" "}
                {off.map((k, i) => (
                  <span key={k}>
                    {i > 0 ? ", " : ""}
                    <Code>{k}</Code>
                  </span>
                ))}
                : creating this channel will be refused. The operator can change the workspace's limits.
              </Notice>
            </div>
          ) : null}
          <ChannelForm workspaceId={wsId} spec={spec} />
        </div>
      </Card>
    </>
  );
}
