export type { BuildContext, Channel, OutgoingHttp, OutgoingMail, OutgoingRequest } from "./channel";
export { defineChannel, NotifierSetupError } from "./channel";
export { signWebhook } from "./channels/webhook";
export { type ChannelConfig, type ConfigIssue, REDACTED, redactConfig, validateChannelConfig } from "./config";
export { NotifierEnv } from "./env";
export { EVENT_TYPES, NotificationEvent, toWebhookPayload, WebhookPayload } from "./event";
export { type NotifyOptions, notify } from "./notify";
export { CHANNEL_KINDS, type ChannelKind, channels, isChannelKind } from "./registry";
export { deliver, type SendOptions, type SendResult, send } from "./send";
