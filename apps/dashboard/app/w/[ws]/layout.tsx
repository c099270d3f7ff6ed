import type { ReactNode } from "react";
import { isAdmin } from "../../../lib/instance";
import { memberOf, memberships } from "../../../lib/session";
import { RestrictedBanner, ViewerBanner } from "../../../ui/banner";
import { Brand } from "../../../ui/brand";
import { Nav } from "../../../ui/nav";
import { WorkspaceSwitcher } from "../../../ui/switcher";
import { SkipLink } from "../../../ui/ui";

export const dynamic = "force-dynamic";

export default async function WorkspaceLayout({ children, params }: { children: ReactNode; params: Promise<{ ws: string }> }) {
  const { ws } = await params;
  const m = await memberOf(ws);
  const list = (await memberships()).map((x) => ({
    id: x.workspace.id,
    name: x.workspace.name ?? `Workspace ${x.workspace.id}`,
    role: x.role,
  }));
  const admin = await isAdmin();
  const switcher = <WorkspaceSwitcher current={m.workspace.id} workspaces={list} email={m.user.email ?? ""} />;
  return (
    <div className="min-h-screen lg:grid lg:grid-cols-[15rem_1fr]">
      <SkipLink />
      <aside className="hidden border-r border-zinc-200 bg-zinc-100/60 lg:flex lg:flex-col lg:gap-5 lg:px-3 lg:py-4">
        <div className="px-2">
          <Brand />
        </div>
        {switcher}
        <Nav workspaceId={m.workspace.id} layout="side" instanceAdmin={admin} />
      </aside>
      <header className="sticky top-0 z-30 border-b border-zinc-200 bg-white/95 backdrop-blur lg:hidden">
        <div className="flex items-center gap-3 px-4 py-2.5">
          <Brand />
          <div className="ml-auto w-52 min-w-0">{switcher}</div>
        </div>
        <Nav workspaceId={m.workspace.id} layout="bar" instanceAdmin={admin} />
      </header>
      <div className="min-w-0">
        <RestrictedBanner ws={m.workspace} />
        {m.role === "viewer" ? <ViewerBanner /> : null}
        <main id="main" className="mx-auto max-w-5xl px-4 py-6 lg:px-8 lg:py-8">
          {children}
        </main>
      </div>
    </div>
  );
}
