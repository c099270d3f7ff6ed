import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["apps/*/src/**/*.test.ts", "packages/*/src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The long files (e2e, browser, pnpm start) mostly wait on slots and processes, not the CPU:
    // three at a time on two cores keeps the suite short without starving them.
    maxWorkers: 3,
    // next-auth imports "next/server" without an extension, which Node's resolver refuses outside Next.
    server: { deps: { inline: ["next-auth"] } },
  },
});
