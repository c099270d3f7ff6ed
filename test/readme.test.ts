import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTestDatabase } from "@vigil/db-schema/testing";
import { channels } from "@vigil/notifier";
import { describe, expect, it } from "vitest";

const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");

describe("the README", () => {
  it("documents every channel kind with every config field its schema accepts", () => {
    for (const [kind, channel] of Object.entries(channels)) {
      const row = readme.split("\n").find((l) => l.startsWith(`| \`${kind}\` |`));
      expect(row, `a row for ${kind}`).toBeDefined();
      for (const field of Object.keys((channel.config as unknown as { shape: Record<string, unknown> }).shape))
        expect(row, `${kind}.${field}`).toContain(`\`${field}`);
    }
  });

  it("its curl examples for operating the database run as written with the local run's token, and fail without it", async () => {
    const section = readme.slice(
      readme.indexOf("## Operating the database"),
      readme.indexOf("\n## ", readme.indexOf("## Operating the database") + 5),
    );
    const commands = [...section.matchAll(/^curl [^\n]*\\\n[^\n]*$/gm)].map((m) => m[0]);
    expect(commands.length).toBe(3);
    const t = await startTestDatabase({ auth: true });
    try {
      await t.db.$client.execute("INSERT INTO workspace (id, name) VALUES (1, 'Local')");
      // A working directory shaped like the repository after `pnpm start`: .data/db-token.
      mkdirSync(join(t.dir, ".data"));
      copyFileSync(t.keys!.tokenFile, join(t.dir, ".data", "db-token"));
      const run = (command: string) =>
        execFileSync("sh", ["-c", command.replaceAll("http://127.0.0.1:8080", t.url)], { cwd: t.dir, encoding: "utf8" });
      for (const command of commands) {
        expect(command).toContain('-H "Authorization: Bearer $(cat .data/db-token)"');
        const answer = JSON.parse(run(command)) as { error?: unknown }[];
        expect(answer.map((a) => a.error)).toEqual([undefined]);
        expect(JSON.parse(run(command.replace(/-H "Authorization: [^"]*" /, "")))).toHaveProperty("error");
      }
      const { rows } = await t.db.$client.execute("SELECT plan, limits IS NOT NULL AS limited FROM workspace WHERE id = 1");
      expect(rows.map((r) => [r.plan, r.limited])).toEqual([["team", 1]]);
    } finally {
      await t.close();
    }
  });
});
