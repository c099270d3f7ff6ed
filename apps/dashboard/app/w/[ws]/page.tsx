import { limitsOf, listApiKeys, listMembers, listMonitors, listPrivateLocations } from "@vigil/core";
import { Activity, ArrowRight, KeyRound, MapPin, Terminal, Users } from "lucide-react";
import Link from "next/link";
import { getDb } from "../../../lib/db";
import { memberOf } from "../../../lib/session";
import { Snippet } from "../../../ui/copy-button";
import { Badge, Card, CardHeader, PageHeader } from "../../../ui/ui";

export const metadata = { title: "Overview" };

export default async function Overview({ params }: { params: Promise<{ ws: string }> }) {
  const { ws } = await params;
  const m = await memberOf(ws);
  const db = getDb();
  const id = m.workspace.id;
  const [monitors, locations, keys, members] = await Promise.all([
    listMonitors(db, id),
    listPrivateLocations(db, id),
    listApiKeys(db, id),
    listMembers(db, id),
  ]);
  const { limits } = limitsOf(m.workspace);
  const online = locations.filter((l) => l.online).length;
  const activeKeys = keys.filter((k) => k.revokedAt === null).length;
  const stats = [
    {
      label: "Monitors",
      value: `${monitors.length}`,
      sub: `of ${limits.monitors.toLocaleString("en")} allowed`,
      icon: Activity,
      href: "/monitors",
    },
    { label: "Private locations", value: `${locations.length}`, sub: `${online} online`, icon: MapPin, href: "/locations" },
    { label: "API keys", value: `${activeKeys}`, sub: "active", icon: KeyRound, href: "/api-keys" },
    {
      label: "Members",
      value: `${members.length}`,
      sub: `of ${limits.members === "Unlimited" ? "unlimited" : limits.members.toLocaleString("en")} allowed`,
      icon: Users,
      href: "/members",
    },
  ];
  return (
    <>
      <PageHeader
        title={m.workspace.name ?? `Workspace ${id}`}
        description={
          <>
            Workspace {id} · you are <Badge tone="indigo">{m.role}</Badge>
          </>
        }
      />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {stats.map((s) => (
          <Link
            key={s.label}
            href={`/w/${id}${s.href}`}
            className="rounded-xl border border-zinc-200 bg-white p-4 shadow-xs transition-colors hover:border-zinc-300"
          >
            <div className="flex items-center justify-between text-sm text-zinc-500">
              {s.label}
              <s.icon className="size-4" aria-hidden />
            </div>
            <div className="mt-2 text-2xl font-semibold tabular-nums">{s.value}</div>
            <div className="text-xs text-zinc-500">{s.sub}</div>
          </Link>
        ))}
      </div>
      <Card className="mt-6">
        <CardHeader title="Get started" description="Create monitors in the dashboard's editor, or as code with the CLI." />
        <ol className="divide-y divide-zinc-100">
          {[
            {
              n: 1,
              title: "Create an API key",
              body: "The CLI uses it to create and update monitors.",
              href: "/api-keys",
              done: activeKeys > 0,
            },
            {
              n: 2,
              title: "Run a private location",
              body: "A probe in your network runs the checks and reports results.",
              href: "/locations",
              done: locations.length > 0,
            },
            {
              n: 3,
              title: "Invite your team",
              body: "Admins manage keys and locations; members can look around.",
              href: "/members",
              done: members.length > 1,
            },
          ].map((s) => (
            <li key={s.n}>
              <Link href={`/w/${id}${s.href}`} className="flex items-center gap-4 px-5 py-3.5 hover:bg-zinc-50">
                <span
                  className={`flex size-7 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${s.done ? "bg-emerald-100 text-emerald-700" : "bg-zinc-100 text-zinc-600"}`}
                >
                  {s.done ? "✓" : s.n}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block text-sm font-medium">{s.title}</span>
                  <span className="block text-sm text-zinc-500">{s.body}</span>
                </span>
                <ArrowRight className="size-4 text-zinc-400" aria-hidden />
              </Link>
            </li>
          ))}
        </ol>
        <div className="border-t border-zinc-100 px-5 py-4">
          <p className="mb-2 flex items-center gap-2 text-sm font-medium">
            <Terminal className="size-4" aria-hidden /> Then create monitors: in{" "}
            <Link href={`/w/${id}/monitors/new`} className="underline">
              the monitor editor
            </Link>{" "}
            or from YAML
          </p>
          <Snippet
            title="Shell"
            value={"export VIGIL_API_TOKEN=<your API key>\npnpm exec vigil create examples/monitors.yaml\npnpm exec vigil list"}
          />
        </div>
      </Card>
    </>
  );
}
