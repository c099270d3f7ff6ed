import type { CHANNEL_KINDS } from "@vigil/api-contract";
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

/** Defined once in api-contract: the db column's enum, the REST schema and this registry share it. */
export { CHANNEL_KINDS } from "@vigil/api-contract";
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
