import type { Channel } from "./channel";
import { discord } from "./channels/discord";
import { email } from "./channels/email";
import { googleChat } from "./channels/google-chat";
import { grafanaOncall } from "./channels/grafana-oncall";
import { msTeams } from "./channels/ms-teams";
import { ntfy } from "./channels/ntfy";
import { opsgenie } from "./channels/opsgenie";
import { pagerduty } from "./channels/pagerduty";
import { slack } from "./channels/slack";
import { sms } from "./channels/sms";
import { telegram } from "./channels/telegram";
import { webhook } from "./channels/webhook";
import { whatsapp } from "./channels/whatsapp";

/** Same list and order as the db schema's column enum (a test keeps them equal); the notifier must not depend on the db. */
export const CHANNEL_KINDS = [
  "slack",
  "email",
  "discord",
  "grafana-oncall",
  "google-chat",
  "sms",
  "whatsapp",
  "telegram",
  "webhook",
  "opsgenie",
  "pagerduty",
  "ntfy",
  "ms-teams",
] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const channels = {
  slack,
  email,
  discord,
  "grafana-oncall": grafanaOncall,
  "google-chat": googleChat,
  sms,
  whatsapp,
  telegram,
  webhook,
  opsgenie,
  pagerduty,
  ntfy,
  "ms-teams": msTeams,
} satisfies { [K in ChannelKind]: Channel<K> };

export const isChannelKind = (kind: string): kind is ChannelKind => Object.hasOwn(channels, kind);
