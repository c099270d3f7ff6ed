import { Activity } from "lucide-react";

export function Brand() {
  return (
    <span className="flex items-center gap-2 font-semibold tracking-tight">
      <span className="flex size-7 items-center justify-center rounded-lg bg-zinc-900 text-white">
        <Activity className="size-4" aria-hidden />
      </span>
      Vigil
    </span>
  );
}
