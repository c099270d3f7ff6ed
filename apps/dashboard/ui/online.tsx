import { Badge } from "./ui";

export function OnlineBadge({ online, overloaded = false }: { online: boolean; overloaded?: boolean }) {
  return (
    <span className="inline-flex gap-1.5">
      <Badge tone={online ? "green" : "zinc"}>
        <span className={`size-1.5 rounded-full ${online ? "bg-emerald-500" : "bg-zinc-400"}`} aria-hidden />
        {online ? "online" : "offline"}
      </Badge>
      {online && overloaded ? (
        <span title="The probe keeps missing its checks' deadlines: give it more CPU or fewer monitors. Those checks are skipped, never alerts.">
          <Badge tone="amber">overloaded</Badge>
        </span>
      ) : null}
    </span>
  );
}
