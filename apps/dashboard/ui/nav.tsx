"use client";
import {
  Activity,
  Bell,
  FileClock,
  Gauge,
  KeyRound,
  type LucideIcon,
  MapPin,
  PanelsTopLeft,
  Settings,
  ShieldCheck,
  Siren,
  Users,
} from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { cx } from "./ui";

const ITEMS: { href: string; label: string; icon: LucideIcon }[] = [
  { href: "", label: "Overview", icon: Gauge },
  { href: "/monitors", label: "Monitors", icon: Activity },
  { href: "/notifications", label: "Notifications", icon: Bell },
  { href: "/escalation", label: "Escalation", icon: Siren },
  { href: "/status-pages", label: "Status pages", icon: PanelsTopLeft },
  { href: "/locations", label: "Private locations", icon: MapPin },
  { href: "/api-keys", label: "API keys", icon: KeyRound },
  { href: "/members", label: "Members", icon: Users },
  { href: "/settings", label: "Settings", icon: Settings },
  { href: "/audit-log", label: "Audit log", icon: FileClock },
];

/** Whether `path` is the section `base + href` or inside it ("" is the section's own index only). */
export function isCurrent(path: string, base: string, href: string): boolean {
  const to = base + href;
  return href === "" ? path === base : path === to || path.startsWith(`${to}/`);
}

/** A link to the section `base + href`, marked the current page (for screen readers too) while it is. */
export function SectionLink({
  path,
  base,
  href,
  className,
  children,
}: {
  path: string;
  base: string;
  href: string;
  className: (active: boolean) => string;
  children: ReactNode;
}) {
  const active = isCurrent(path, base, href);
  return (
    <Link href={base + href} aria-current={active ? "page" : undefined} className={className(active)}>
      {children}
    </Link>
  );
}

/** `instanceAdmin` adds the instance area (its pages answer 404 to anyone else anyway). */
export function Nav({ workspaceId, layout, instanceAdmin }: { workspaceId: number; layout: "side" | "bar"; instanceAdmin?: boolean }) {
  const path = usePathname();
  const base = `/w/${workspaceId}`;
  return (
    <nav aria-label="Workspace" className={layout === "side" ? "grid gap-0.5" : "flex gap-1 overflow-x-auto px-4 pb-2"}>
      {ITEMS.map(({ href, label, icon: Icon }) => {
        return (
          <SectionLink
            key={label}
            path={path}
            base={base}
            href={href}
            className={(active) =>
              cx(
                "flex shrink-0 items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm whitespace-nowrap transition-colors",
                active ? "bg-zinc-900 text-white" : "text-zinc-600 hover:bg-zinc-200/60 hover:text-zinc-900",
              )
            }
          >
            <Icon className="size-4" aria-hidden />
            {label}
          </SectionLink>
        );
      })}
      {instanceAdmin ? (
        <Link
          href="/instance"
          className="flex shrink-0 items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm whitespace-nowrap text-indigo-700 hover:bg-indigo-50"
        >
          <ShieldCheck className="size-4" aria-hidden />
          Instance
        </Link>
      ) : null}
    </nav>
  );
}
