import { type Monitor, MonitorInput, REDACTED } from "@vigil/api-contract";
import { describe, expect, it } from "vitest";
import { draftOf, emptyDraft } from "./draft";
import { storedMonitorBase } from "./fixtures";
import { fieldOf, inputOf, withoutSecrets } from "./input";
import { kindFields } from "./kind-fields";
import { draftFromForm } from "./posted";

const common: Omit<Monitor, "kind" | "request"> = {
  ...storedMonitorBase(),
  id: 9,
  key: "orders-db",
  name: "Orders DB",
  tags: [],
  failureThreshold: 1,
  successThreshold: 1,
  timeout: 10_000,
  degradedAfter: null,
  openTelemetry: null,
  channels: [],
};

const form = (entries: Record<string, string>) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries({ frequency: "1m", regions: "iad", timeout: "10s", retry: "3", active: "on", ...entries }))
    fd.append(k, v);
  return fd;
};

describe("the monitor form for kinds without a section of their own", () => {
  it("offers each kind's request fields, typed from its schema, the connection string marked secret", () => {
    const summary = (kind: Parameters<typeof kindFields>[0]) => kindFields(kind).map((f) => [f.name, f.type, f.secret ?? false]);
    expect(summary("ping")).toEqual([
      ["host", "text", false],
      ["packets", "number", false],
      ["packetTimeout", "number", false],
    ]);
    expect(kindFields("grpc").find((f) => f.name === "tls")?.type).toBe("boolean");
    expect(summary("postgres")).toEqual([
      ["connection", "text", true],
      ["query", "text", false],
    ]);
  });

  it("a typed ping form becomes a valid monitor with numbers where the schema wants them", () => {
    const d = draftFromForm(form({ kind: "ping", name: "gw", "field.host": "::1", "field.packets": "5", "field.packetTimeout": "800" }));
    const parsed = MonitorInput.parse(inputOf(d));
    expect(parsed).toMatchObject({ kind: "ping", request: { host: "::1", packets: 5, packetTimeout: 800 } });
  });

  it("a stored connection string never reaches the page; left empty it is sent back as *** and kept", () => {
    const m = { ...common, kind: "postgres", request: { connection: REDACTED, query: "SELECT 1" }, assertions: [] } as Monitor;
    const d = draftOf(m);
    expect(d.fields).toEqual({ connection: "", query: "SELECT 1" });
    expect(d.fieldsStored).toBe(true);
    const posted = draftFromForm(form({ kind: "postgres", fieldsStored: "1", "field.connection": "", "field.query": "SELECT 2" }));
    expect(inputOf(posted)).toMatchObject({ kind: "postgres", request: { connection: REDACTED, query: "SELECT 2" } });
  });

  it("a refused save hands the form back without the connection string typed into it", () => {
    const d = { ...emptyDraft("1m", ["iad"]), kind: "redis" as const, fields: { connection: "redis://:pw@cache:6379", query: "PING" } };
    expect(withoutSecrets(d).fields).toEqual({ connection: "", query: "PING" });
  });

  it("assertions are JSON; a schema issue points at their box or at the field", () => {
    const d = draftFromForm(
      form({
        kind: "redis",
        "field.connection": "redis://cache:6379",
        assertionsText: '[{"kind":"textBody","compare":"eq","target":"PONG"}]',
      }),
    );
    expect(MonitorInput.parse(inputOf(d))).toMatchObject({ assertions: [{ kind: "textBody", target: "PONG" }] });
    expect(fieldOf("request.connection")).toBe("connection");
    expect(fieldOf("assertions")).toBe("assertionsText");
  });
});
