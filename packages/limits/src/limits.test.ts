import { describe, expect, it } from "vitest";
import {
  assertWithinLimits,
  checkCount,
  checkFeature,
  checkPeriodicity,
  checkRegions,
  effectiveLimits,
  LIMIT_KEYS,
  LimitExceededError,
  type Limits,
  LimitsPatch,
  parseLimits,
  planExpired,
  presets,
  restricted,
  retentionCutoff,
  retentionMonths,
} from "./index";

const SPEC_KEYS = [
  "monitors",
  "periodicity",
  "multi-region",
  "data-retention",
  "status-pages",
  "maintenance",
  "status-subscribers",
  "custom-domain",
  "password-protection",
  "white-label",
  "notifications",
  "sms",
  "incident-alerting",
  "notification-channels",
  "members",
  "audit-log",
  "private-locations",
];

const silent = () => {};

describe("the limits JSON", () => {
  it("has exactly the spec's 17 keys", () => {
    expect([...LIMIT_KEYS].sort()).toEqual([...SPEC_KEYS].sort());
  });

  it("an empty or missing column means restricted", () => {
    expect(parseLimits(null)).toEqual(restricted);
    expect(parseLimits("")).toEqual(restricted);
    expect(parseLimits("   ")).toEqual(restricted);
  });

  it("bad JSON in the column gives restricted and a warning, never a throw", () => {
    const warnings: string[] = [];
    expect(parseLimits("{monitors: 5", (m) => warnings.push(m))).toEqual(restricted);
    expect(warnings[0]).toMatch(/not valid JSON/);
    expect(parseLimits("[1,2]", (m) => warnings.push(m))).toEqual(restricted);
    expect(parseLimits("42", (m) => warnings.push(m))).toEqual(restricted);
    expect(warnings).toHaveLength(3);
  });

  it("a missing key takes its restricted value while the others are kept", () => {
    const l = parseLimits(JSON.stringify({ monitors: 50, sms: true }), silent);
    expect(l.monitors).toBe(50);
    expect(l.sms).toBe(true);
    expect(l.periodicity).toEqual(restricted.periodicity);
    expect(l["private-locations"]).toBe(false);
  });

  it("a key of the wrong type falls back to restricted for that key only and is reported", () => {
    const warnings: string[] = [];
    const l = parseLimits(JSON.stringify({ monitors: "many", "audit-log": true }), (m) => warnings.push(m));
    expect(l.monitors).toBe(restricted.monitors);
    expect(l["audit-log"]).toBe(true);
    expect(warnings.join()).toMatch(/"monitors" is invalid/);
  });

  it("an unknown key is ignored with a warning", () => {
    const warnings: string[] = [];
    parseLimits(JSON.stringify({ "fancy-feature": true }), (m) => warnings.push(m));
    expect(warnings.join()).toMatch(/"fancy-feature" is not a known key/);
  });

  const valid: Record<string, [unknown, unknown]> = {
    monitors: [7, -1],
    periodicity: [["30s", "1h"], ["2m"]],
    "multi-region": [true, "yes"],
    "data-retention": ["3 months", "90 days"],
    "status-pages": [2, 1.5],
    maintenance: [true, 1],
    "status-subscribers": [true, "true"],
    "custom-domain": [true, null],
    "password-protection": [true, 0],
    "white-label": [true, "false"],
    notifications: [false, "no"],
    sms: [true, []],
    "incident-alerting": [true, {}],
    "notification-channels": [3, "3"],
    members: ["Unlimited", "unlimited"],
    "audit-log": [true, "on"],
    "private-locations": [true, 1],
  };
  for (const key of SPEC_KEYS) {
    it(`limit "${key}" accepts its type and rejects another`, () => {
      const [good, bad] = valid[key]!;
      expect(parseLimits(JSON.stringify({ [key]: good }), silent)[key as keyof Limits]).toEqual(good);
      expect(parseLimits(JSON.stringify({ [key]: bad }), silent)[key as keyof Limits]).toEqual(restricted[key as keyof Limits]);
      expect(LimitsPatch.safeParse({ [key]: bad }).success).toBe(false);
    });
  }

  it("members may be a number", () => {
    expect(parseLimits(JSON.stringify({ members: 12 }), silent).members).toBe(12);
  });
});

describe("presets", () => {
  for (const [name, preset] of Object.entries(presets)) {
    it(`the ${name} preset sets all 17 keys validly`, () => {
      expect(Object.keys(preset).sort()).toEqual([...SPEC_KEYS].sort());
      expect(parseLimits(JSON.stringify(preset), () => expect.fail(`warning for ${name}`))).toEqual(preset);
    });
  }

  it("restricted allows one monitor, slow frequencies, one region, one channel, one member and no private locations", () => {
    expect(restricted).toMatchObject({
      monitors: 1,
      periodicity: ["10m", "30m", "1h"],
      "multi-region": false,
      "status-pages": 1,
      "notification-channels": 1,
      members: 1,
      "private-locations": false,
      sms: false,
      "incident-alerting": false,
    });
  });

  it("presets grow from restricted to unlimited", () => {
    const order = [presets.restricted, presets.free, presets.starter, presets.team, presets.unlimited];
    for (let i = 1; i < order.length; i++) {
      expect(order[i]!.monitors).toBeGreaterThanOrEqual(order[i - 1]!.monitors);
      expect(order[i]!.periodicity.length).toBeGreaterThanOrEqual(order[i - 1]!.periodicity.length);
    }
    expect(presets.unlimited.periodicity).toEqual(["30s", "1m", "5m", "10m", "30m", "1h"]);
    expect(presets.unlimited.members).toBe("Unlimited");
  });
});

describe("plan expiry", () => {
  const now = Date.UTC(2026, 10, 22, 12);
  const nowS = now / 1000;
  const limits = JSON.stringify(presets.team);

  it("a workspace whose ends_at has passed falls back to restricted", () => {
    expect(effectiveLimits({ limits, endsAt: nowS - 1 }, now)).toEqual(restricted);
    expect(planExpired({ endsAt: nowS - 1 }, now)).toBe(true);
  });

  it("a workspace whose ends_at is ahead or null keeps its limits", () => {
    expect(effectiveLimits({ limits, endsAt: nowS + 3600 }, now)).toEqual(presets.team);
    expect(effectiveLimits({ limits, endsAt: null }, now)).toEqual(presets.team);
  });

  it("a set paid_until in the past falls back to restricted; an unset one does not", () => {
    expect(effectiveLimits({ limits, paidUntil: nowS - 60, endsAt: null }, now)).toEqual(restricted);
    expect(effectiveLimits({ limits, paidUntil: null, endsAt: null }, now)).toEqual(presets.team);
    expect(effectiveLimits({ limits, paidUntil: nowS + 60, endsAt: null }, now)).toEqual(presets.team);
  });
});

describe("limit checks", () => {
  it("a count over the limit names the key, the limit and the attempted value", () => {
    const v = checkCount(restricted, "monitors", 2);
    expect(v).toEqual({
      code: "limit_exceeded",
      key: "monitors",
      limit: 1,
      attempted: 2,
      message: "monitors: the limit is 1, this would make 2",
    });
    expect(checkCount(restricted, "monitors", 1)).toBeNull();
  });

  it("Unlimited members never run out", () => {
    expect(checkCount(presets.team, "members", 10_000)).toBeNull();
    expect(checkCount(restricted, "members", 2)?.key).toBe("members");
  });

  it("a frequency outside periodicity is refused with the allowed list", () => {
    expect(checkPeriodicity(restricted, "30s")?.message).toBe("periodicity: frequency 30s is not allowed (allowed: 10m, 30m, 1h)");
    expect(checkPeriodicity(restricted, "1h")).toBeNull();
  });

  it("several regions need multi-region; repeating one region does not", () => {
    expect(checkRegions(restricted, ["iad", "ams"])?.key).toBe("multi-region");
    expect(checkRegions(restricted, ["iad", "iad"])).toBeNull();
    expect(checkRegions(presets.free, ["iad", "ams"])).toBeNull();
  });

  it("a disabled feature is refused by name", () => {
    expect(checkFeature(restricted, "private-locations")?.message).toBe("private-locations: this feature is not enabled for the workspace");
    expect(checkFeature(presets.team, "private-locations")).toBeNull();
  });

  it("assertWithinLimits throws the first violation", () => {
    expect(() =>
      assertWithinLimits(restricted, [
        { kind: "periodicity", frequency: "1h" },
        { kind: "feature", key: "sms" },
      ]),
    ).toThrow(LimitExceededError);
    try {
      assertWithinLimits(restricted, [{ kind: "feature", key: "sms" }]);
    } catch (err) {
      expect((err as LimitExceededError).violation.key).toBe("sms");
    }
  });
});

describe("data retention", () => {
  it("reads the months and cuts off that many calendar months back", () => {
    const limits = { ...restricted, "data-retention": "3 months" };
    expect(retentionMonths(limits)).toBe(3);
    expect(new Date(retentionCutoff(limits, Date.UTC(2026, 4, 31))).toISOString()).toBe("2026-02-28T00:00:00.000Z");
    expect(retentionMonths({ ...restricted, "data-retention": "1 month" })).toBe(1);
  });
});
