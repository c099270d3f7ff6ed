import { FREQUENCIES, Frequency } from "@vigil/api-contract";
import { z } from "zod";

const count = z.number().int().min(0);

/** The spec's 17 limit keys, exactly. */
export const Limits = z.object({
  monitors: count,
  periodicity: z.array(Frequency),
  "multi-region": z.boolean(),
  "data-retention": z.string().regex(/^\d+ months?$/, 'must be a duration in months such as "3 months"'),
  "status-pages": count,
  maintenance: z.boolean(),
  "status-subscribers": z.boolean(),
  "custom-domain": z.boolean(),
  "password-protection": z.boolean(),
  "white-label": z.boolean(),
  notifications: z.boolean(),
  sms: z.boolean(),
  "incident-alerting": z.boolean(),
  "notification-channels": count,
  members: z.union([count, z.literal("Unlimited")]),
  "audit-log": z.boolean(),
  "private-locations": z.boolean(),
});
export type Limits = z.infer<typeof Limits>;
export type LimitKey = keyof Limits;
export const LIMIT_KEYS = Object.keys(Limits.shape) as LimitKey[];

/** A partial limits object, as an operator writes it: every key optional, no unknown key. */
export const LimitsPatch = Limits.partial().strict();
export type LimitsPatch = z.infer<typeof LimitsPatch>;

export type CountKey = "monitors" | "status-pages" | "notification-channels" | "members";
export type FeatureKey = {
  [K in LimitKey]: Limits[K] extends boolean ? K : never;
}[LimitKey];

const ALL = [...FREQUENCIES];

/** What a workspace gets when nothing (or nothing valid) is set. */
export const restricted: Limits = {
  monitors: 1,
  periodicity: ["10m", "30m", "1h"],
  "multi-region": false,
  "data-retention": "1 month",
  "status-pages": 1,
  maintenance: false,
  "status-subscribers": false,
  "custom-domain": false,
  "password-protection": false,
  "white-label": false,
  notifications: true,
  sms: false,
  "incident-alerting": false,
  "notification-channels": 1,
  members: 1,
  "audit-log": false,
  "private-locations": false,
};

export const presets = {
  restricted,
  free: {
    ...restricted,
    "multi-region": true,
    "data-retention": "1 month",
    "private-locations": false,
  },
  starter: {
    monitors: 20,
    periodicity: ["1m", "5m", "10m", "30m", "1h"],
    "multi-region": true,
    "data-retention": "3 months",
    "status-pages": 1,
    maintenance: true,
    "status-subscribers": true,
    "custom-domain": true,
    "password-protection": true,
    "white-label": false,
    notifications: true,
    sms: true,
    "incident-alerting": true,
    "notification-channels": 10,
    members: "Unlimited",
    "audit-log": false,
    "private-locations": true,
  },
  team: {
    monitors: 50,
    periodicity: ALL,
    "multi-region": true,
    "data-retention": "12 months",
    "status-pages": 5,
    maintenance: true,
    "status-subscribers": true,
    "custom-domain": true,
    "password-protection": true,
    "white-label": true,
    notifications: true,
    sms: true,
    "incident-alerting": true,
    "notification-channels": 20,
    members: "Unlimited",
    "audit-log": true,
    "private-locations": true,
  },
  unlimited: {
    monitors: 1_000_000,
    periodicity: ALL,
    "multi-region": true,
    "data-retention": "120 months",
    "status-pages": 1_000_000,
    maintenance: true,
    "status-subscribers": true,
    "custom-domain": true,
    "password-protection": true,
    "white-label": true,
    notifications: true,
    sms: true,
    "incident-alerting": true,
    "notification-channels": 1_000_000,
    members: "Unlimited",
    "audit-log": true,
    "private-locations": true,
  },
} satisfies Record<string, Limits>;
export type PresetName = keyof typeof presets;
export const PRESET_NAMES = Object.keys(presets) as PresetName[];
