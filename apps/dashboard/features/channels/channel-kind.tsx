import type { ChannelKind } from "@vigil/notifier";
import { BellRing, type LucideIcon, Mail, MessageSquare, MessagesSquare, Send, Siren, Smartphone, Webhook } from "lucide-react";
import { kindSpec } from "./channel-model";

const ICONS: Record<ChannelKind, LucideIcon> = {
  slack: MessagesSquare,
  discord: MessagesSquare,
  "google-chat": MessagesSquare,
  "ms-teams": MessagesSquare,
  email: Mail,
  sms: Smartphone,
  whatsapp: MessageSquare,
  telegram: Send,
  webhook: Webhook,
  opsgenie: Siren,
  pagerduty: Siren,
  "grafana-oncall": Siren,
  ntfy: BellRing,
};

/** A kind's icon and product name, e.g. "Slack". */
export function KindLabel({ kind }: { kind: ChannelKind }) {
  const Icon = ICONS[kind];
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <Icon className="size-4 text-zinc-500" aria-hidden />
      {kindSpec(kind).title}
    </span>
  );
}

export function KindIcon({ kind }: { kind: ChannelKind }) {
  const Icon = ICONS[kind];
  return <Icon className="size-5" aria-hidden />;
}
