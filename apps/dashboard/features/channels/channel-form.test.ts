import { CHANNEL_KINDS, REDACTED, redactConfig, validateChannelConfig } from "@vigil/notifier";
import { describe, expect, it } from "vitest";
import { allKinds, configFromForm, fieldOf, formValues, kindSpec } from "./channel-model";

const form = (entries: [string, string][]) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};

describe("channel forms generated from the notifier's schemas", () => {
  it("every one of the 13 kinds gets a form whose fields have a label and help text", () => {
    const kinds = allKinds();
    expect(kinds.map((k) => k.kind)).toEqual([...CHANNEL_KINDS]);
    expect(kinds).toHaveLength(13);
    for (const k of kinds) {
      expect(k.title, k.kind).toBeTruthy();
      expect(k.description, k.kind).toBeTruthy();
      expect(k.fields.length, k.kind).toBeGreaterThan(0);
      expect(
        k.fields.some((f) => f.required),
        k.kind,
      ).toBe(true);
      for (const f of k.fields) expect(f.help, `${k.kind}.${f.key}`).toBeTruthy();
    }
  });

  it("field types follow the schema: URL, email, choice with its default, name/value map; secrets are write-only", () => {
    expect(kindSpec("webhook").fields).toMatchObject([
      { key: "url", type: "url", required: true, secret: false },
      { key: "headers", type: "map", required: false, secret: true },
      { key: "secret", type: "text", required: false, secret: true },
    ]);
    expect(kindSpec("email").fields).toMatchObject([{ key: "email", type: "email", secret: false }]);
    expect(kindSpec("opsgenie").fields[1]).toMatchObject({ key: "region", type: "enum", options: ["us", "eu"], defaultValue: "us" });
    expect(kindSpec("slack").fields[0]).toMatchObject({ key: "webhookUrl", secret: true });
    expect(kindSpec("pagerduty").needs).toEqual(["incident-alerting"]);
    expect(kindSpec("sms").needs).toEqual(["sms"]);
  });

  it("a submitted form becomes a config the kind accepts; blank optional fields and empty header rows are left out", () => {
    const config = configFromForm(
      kindSpec("webhook"),
      form([
        ["config.url", " https://example.com/hook "],
        ["config.headers.name", "Authorization"],
        ["config.headers.value", "Bearer abc"],
        ["config.headers.name", ""],
        ["config.headers.value", ""],
        ["config.secret", ""],
      ]),
      false,
    );
    expect(config).toEqual({ url: "https://example.com/hook", headers: { Authorization: "Bearer abc" } });
    expect(validateChannelConfig("webhook", config).ok).toBe(true);
  });

  it("on edit a stored secret left blank is kept, unless its removal is ticked", () => {
    const spec = kindSpec("webhook");
    const base: [string, string][] = [
      ["config.url", "https://example.com/hook"],
      ["config.headers.kept", "Authorization"],
      ["config.headers.name", "Authorization"],
      ["config.headers.value", ""],
      ["config.secret", ""],
      ["config.secret.set", "1"],
    ];
    expect(configFromForm(spec, form(base), true)).toEqual({
      url: "https://example.com/hook",
      headers: { Authorization: REDACTED },
      secret: REDACTED,
    });
    expect(configFromForm(spec, form([...base, ["config.secret.clear", "on"]]), true)).not.toHaveProperty("secret");
  });

  it("the edit form gets no secret back: only whether it is set, and header names without values", () => {
    const stored = { url: "https://example.com/hook", headers: { Authorization: "Bearer abc" }, secret: "0123456789abcdef" };
    const v = formValues(kindSpec("webhook"), redactConfig("webhook", stored));
    expect(v).toEqual({
      values: { url: "https://example.com/hook" },
      set: { secret: true },
      maps: { headers: [{ name: "Authorization", value: "" }] },
      lists: {},
    });
    expect(JSON.stringify(v)).not.toContain("Bearer abc");
    expect(JSON.stringify(v)).not.toContain("0123456789abcdef");
  });

  it("an error on a header lands on the headers field", () => {
    expect(fieldOf("config.headers.X-Api")).toBe("config.headers");
    expect(fieldOf("config.url")).toBe("config.url");
    expect(fieldOf("name")).toBe("name");
  });

  it("the form knows which field is a kind's destination, so a changed origin asks for its secrets again", () => {
    expect(kindSpec("webhook").destination).toBe("url");
    expect(kindSpec("ntfy").destination).toBe("server");
    // The secret is the URL itself, or the operator fixes where it goes: nothing to compare.
    expect(kindSpec("slack").destination).toBeUndefined();
    expect(kindSpec("telegram").destination).toBeUndefined();
  });
});
