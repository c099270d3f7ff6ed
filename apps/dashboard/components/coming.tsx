import { Construction } from "lucide-react";
import type { ReactNode } from "react";
import { Snippet } from "./copy-button";
import { Card, Empty } from "./ui";

/** An area the dashboard does not edit yet: says so, and shows what works today. */
export function Coming({ what, children, commands }: { what: string; children: ReactNode; commands?: string }) {
  return (
    <Card>
      <Empty icon={<Construction className="size-5" aria-hidden />} title={`Editing ${what} in the dashboard is coming next`}>
        {children}
      </Empty>
      {commands ? (
        <div className="border-t border-zinc-100 px-5 py-4">
          <Snippet title="What works today" value={commands} />
        </div>
      ) : null}
    </Card>
  );
}
