import Link from "next/link";
import type { ReactNode } from "react";
import { requireInstanceAdmin } from "../../lib/instance";
import { Brand } from "../../ui/brand";
import { SkipLink } from "../../ui/ui";

export const dynamic = "force-dynamic";

/** The instance area: its admins only; anyone else gets the dashboard's 404. */
export default async function InstanceLayout({ children }: { children: ReactNode }) {
  const u = await requireInstanceAdmin();
  return (
    <div className="min-h-screen">
      <SkipLink />
      <header className="border-b border-zinc-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-5 gap-y-2 px-4 py-3 lg:px-8">
          <Brand />
          <nav aria-label="Instance" className="flex flex-wrap gap-1 text-sm">
            <Link href="/instance" className="rounded-md px-2.5 py-1.5 hover:bg-zinc-100">
              Workspaces
            </Link>
            <Link href="/instance/people" className="rounded-md px-2.5 py-1.5 hover:bg-zinc-100">
              People, tokens &amp; log
            </Link>
            <Link href="/" className="rounded-md px-2.5 py-1.5 text-zinc-500 hover:bg-zinc-100">
              Back to my workspace
            </Link>
          </nav>
          <span className="ml-auto truncate text-xs text-zinc-500">Instance admin: {u.email}</span>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-5xl px-4 py-6 lg:px-8 lg:py-8">
        {children}
      </main>
    </div>
  );
}
