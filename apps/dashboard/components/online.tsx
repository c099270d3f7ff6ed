import { Badge } from "./ui";

export function OnlineBadge({ online }: { online: boolean }) {
  return (
    <Badge tone={online ? "green" : "zinc"}>
      <span className={`size-1.5 rounded-full ${online ? "bg-emerald-500" : "bg-zinc-400"}`} aria-hidden />
      {online ? "online" : "offline"}
    </Badge>
  );
}
