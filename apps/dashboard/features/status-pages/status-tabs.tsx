"use client";
import { usePathname } from "next/navigation";
import { SectionLink } from "../../ui/nav";
import { cx } from "../../ui/ui";

const TABS = [
  ["", "Settings"],
  ["/components", "Components"],
  ["/reports", "Reports"],
  ["/maintenance", "Maintenance"],
  ["/subscribers", "Subscribers"],
  ["/sla", "SLA"],
] as const;

/** The editor's sections; the current one is marked for screen readers too. */
export function StatusTabs({ base }: { base: string }) {
  const path = usePathname();
  return (
    <nav aria-label="Status page sections" className="mb-6 flex gap-1 overflow-x-auto border-b border-zinc-200">
      {TABS.map(([href, label]) => {
        return (
          <SectionLink
            key={label}
            path={path}
            base={base}
            href={href}
            className={(active) =>
              cx(
                "-mb-px shrink-0 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap",
                active ? "border-zinc-900 text-zinc-900" : "border-transparent text-zinc-500 hover:text-zinc-900",
              )
            }
          >
            {label}
          </SectionLink>
        );
      })}
    </nav>
  );
}
