import { writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { configPath, DEFAULT_API_URL, resolveSettings } from "./config";
import { run } from "./main";
import { capture, loopback } from "./testing/harness";

const whoamiReply = {
  status: 200,
  body: { workspace: { id: 1, name: "Acme", plan: null }, apiKey: { id: 2, name: "ci", scopes: ["read", "write"] } },
};

describe("where settings come from", () => {
  it("the config file lives under VIGIL_CONFIG, else XDG_CONFIG_HOME, else ~/.config", () => {
    expect(configPath({ VIGIL_CONFIG: "/tmp/x.json", XDG_CONFIG_HOME: "/xdg", HOME: "/home/u" })).toBe("/tmp/x.json");
    expect(configPath({ XDG_CONFIG_HOME: "/xdg", HOME: "/home/u" })).toBe("/xdg/vigil/config.json");
    expect(configPath({ HOME: "/home/u" })).toBe("/home/u/.config/vigil/config.json");
  });

  it("flag beats environment beats config file beats the default", async () => {
    const t = capture();
    const env = t.io.env;
    expect(await resolveSettings({}, env)).toMatchObject({ apiUrl: DEFAULT_API_URL, token: undefined });
    writeFileSync(env.VIGIL_CONFIG as string, JSON.stringify({ apiUrl: "http://file:1", token: "file-token" }));
    expect(await resolveSettings({}, env)).toMatchObject({ apiUrl: "http://file:1", token: "file-token" });
    const withEnv = { ...env, VIGIL_API_URL: "http://env:2/", VIGIL_API_TOKEN: "env-token" };
    expect(await resolveSettings({}, withEnv)).toMatchObject({ apiUrl: "http://env:2", token: "env-token" });
    expect(await resolveSettings({ apiUrl: "https://flag:3", token: "flag-token" }, withEnv)).toMatchObject({
      apiUrl: "https://flag:3",
      token: "flag-token",
    });
  });

  it("an --api-url that is not an http(s) URL exits 1", async () => {
    const t = capture({ VIGIL_API_TOKEN: "t" });
    expect(await run(["list", "--api-url", "ftp://x"], t.io)).toBe(1);
    expect(t.stderr()).toBe('vigil: --api-url must be an http:// or https:// URL (got "ftp://x")\n');
  });

  it("a config file that is not JSON exits 1 naming the file", async () => {
    const t = capture();
    writeFileSync(t.io.env.VIGIL_CONFIG as string, "{nope");
    expect(await run(["whoami"], t.io)).toBe(1);
    expect(t.stderr()).toContain(`${t.io.env.VIGIL_CONFIG} is not valid JSON`);
  });

  it("commands that need the server say how to give a token when there is none", async () => {
    const t = capture();
    expect(await run(["list"], t.io)).toBe(1);
    expect(t.stderr()).toBe("vigil: no API token: pass --token, set VIGIL_API_TOKEN, or run `vigil login`\n");
  });
});

describe("which token reaches the server", () => {
  let server: Awaited<ReturnType<typeof loopback>>;
  afterEach(() => server?.close());

  it("the --token flag wins over VIGIL_API_TOKEN, which wins over the saved login", async () => {
    server = await loopback({ "GET /v1/whoami": whoamiReply });
    const t = capture();
    writeFileSync(t.io.env.VIGIL_CONFIG as string, JSON.stringify({ apiUrl: server.url, token: "file-token" }));
    expect(await run(["whoami"], t.io)).toBe(0);
    expect(await run(["whoami"], { ...t.io, env: { ...t.io.env, VIGIL_API_TOKEN: "env-token" } })).toBe(0);
    expect(await run(["whoami", "--token", "flag-token"], { ...t.io, env: { ...t.io.env, VIGIL_API_TOKEN: "env-token" } })).toBe(0);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(["Bearer file-token", "Bearer env-token", "Bearer flag-token"]);
  });

  it("global flags work before or after the command", async () => {
    server = await loopback({ "GET /v1/whoami": whoamiReply });
    const t = capture();
    expect(await run(["--api-url", server.url, "--token", "a", "whoami"], t.io)).toBe(0);
    expect(await run(["whoami", "--api-url", server.url, "--token", "b", "--json"], t.io)).toBe(0);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(["Bearer a", "Bearer b"]);
    expect(t.stdout()).toContain(`server     ${server.url}\nworkspace  Acme (id 1)\napi key    ci (id 2)\nscopes     read, write\n`);
    expect(JSON.parse(t.stdout().slice(t.stdout().indexOf("{")))).toEqual({ apiUrl: server.url, ...whoamiReply.body });
  });
});
