import { FileCode2, Plus } from "lucide-react";
import Link from "next/link";
import { buttonClass } from "../../ui/ui";

/** The monitors page's way in to the form and to monitors as code. */
export function MonitorsActions({ workspaceId }: { workspaceId: number }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Link href={`/w/${workspaceId}/monitors/import`} className={buttonClass("secondary")}>
        <FileCode2 className="size-4" aria-hidden /> Import / export YAML
      </Link>
      <Link href={`/w/${workspaceId}/monitors/new`} className={buttonClass()}>
        <Plus className="size-4" aria-hidden /> New monitor
      </Link>
    </div>
  );
}
