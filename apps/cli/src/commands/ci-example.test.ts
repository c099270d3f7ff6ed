import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as yaml from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/src/testing";
import { run } from "../main";
import { capture } from "../testing/harness";

const dir = fileURLToPath(new URL("../../../../examples/ci/", import.meta.url));

/** The `vigil …` commands of a job, in order, without what the shell pipes them to. */
const vigilLines = (lines: string[]) =>
  lines
    .flatMap((l) => l.split("\n"))
    .map((l) => l.split("|")[0]!.trim())
    .filter((l) => l.startsWith("vigil "));

function github() {
  const wf = yaml.load(readFileSync(`${dir}github-actions.yml`, "utf8")) as { jobs: Record<string, { steps: { run?: string }[] }> };
  const job = (name: string) => vigilLines(wf.jobs[name]!.steps.flatMap((s) => (s.run ? [s.run] : [])));
  return { pr: job("plan"), main: job("apply") };
}
function gitlab() {
  const ci = yaml.load(readFileSync(`${dir}gitlab-ci.yml`, "utf8")) as Record<string, { script?: string[] }>;
  return { pr: vigilLines(ci["vigil-plan"]!.script!), main: vigilLines(ci["vigil-apply"]!.script!) };
}

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

async function vigil(line: string) {
  const cli = capture({ VIGIL_API_URL: s.url, VIGIL_API_TOKEN: s.apiKey }, { cwd: dir });
  const argv = line.split(/\s+/).slice(1);
  const code = await run(argv, cli.io);
  return { code, out: cli.stdout(), err: cli.stderr() };
}

const keys = async () => ((await s.call("GET", "/v1/monitors")).body.monitors as { key: string }[]).map((m) => m.key).sort();

describe("the CI examples run green against a local server", () => {
  for (const [name, load] of [
    ["GitHub Actions", github],
    ["GitLab CI", gitlab],
  ] as const)
    it(`${name}: a pull request validates and plans without changing anything, main applies the file`, async () => {
      for (const m of (await s.call("GET", "/v1/monitors")).body.monitors) await s.call("DELETE", `/v1/monitors/${m.id}`);
      const { pr, main } = load();
      expect(pr).toEqual(["vigil validate monitors.yaml", "vigil apply monitors.yaml --dry-run"]);
      expect(main).toEqual(["vigil validate monitors.yaml", "vigil apply monitors.yaml"]);
      for (const line of pr) {
        const r = await vigil(line);
        expect(r.code, `${line}: ${r.err}`).toBe(0);
        if (line.includes("--dry-run")) expect(r.out).toMatch(/\+ .*api-health/);
      }
      expect(await keys()).toEqual([]);
      for (const line of main) expect((await vigil(line)).code, line).toBe(0);
      expect(await keys()).toEqual(["api-health", "postgres"]);
      // Applying again on the next push changes nothing.
      const again = await vigil("vigil apply monitors.yaml --dry-run");
      expect(again.out).not.toMatch(/^\+/m);
    });
});
