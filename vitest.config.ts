import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The longest files, longest first (seconds each in the clean-clone run of 2026-11-27). Started last, one of
 * them alone held the run open for minutes after the others were done; started first, they overlap the rest.
 */
const LONGEST_FIRST = [
  "test/e2e/spine.stack.test.ts", // 355
  "apps/server/src/fuzz.test.ts", // 280
  "test/e2e/offline.stack.test.ts", // 184
  "apps/workflows/src/delivery.stack.test.ts", // 159
  "test/e2e/heartbeat.stack.test.ts", // 155
  "apps/workflows/src/escalation.stack.test.ts", // 140 alone, 2026-11-28
  "test/e2e/alert-thresholds.stack.test.ts", // 139
  "apps/dashboard/features/dashboard.stack.test.ts", // 80
  "test/e2e/bulk-create.stack.test.ts", // 67, started last in the run of 2026-11-28 10:37
  "test/e2e/replicas.stack.test.ts", // 80
  "apps/status-page/src/status-page.stack.test.ts", // 88, 2026-11-29
  "apps/private-location/src/restart.stack.test.ts", // 79, 2026-11-29
  "packages/core/src/alerts/dependencies.test.ts", // 40-70 (fast project), 2026-11-29
  "test/truth/audit.stack.test.ts", // 50, 2026-11-29
  "test/e2e/ping-namespace.stack.test.ts", // 79
  "apps/dashboard/features/monitors/monitors-list.stack.test.ts", // 73
  "test/e2e/protocol-kinds.stack.test.ts", // 65
  "apps/dashboard/features/channels/channels.stack.test.ts", // 61
  "apps/workflows/src/storm.stack.test.ts", // 60
];

class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // A stable sort: the rest keep vitest's own order.
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

/** Every test file the stack project runs: those that spawn services, start a Next app or drive a browser. */
const STACK = [
  "apps/*/src/**/*.stack.test.ts",
  "packages/*/src/**/*.stack.test.ts",
  "test/**/*.stack.test.ts",
  "apps/dashboard/**/*.stack.test.ts",
  // In-process, but 11,000 requests (about 4 minutes on two cores): more than the whole fast project may take.
  "apps/server/src/fuzz.test.ts",
];
// The dashboard's tests sit beside their features (apps/dashboard/features, lib), outside src.
const ALL = ["apps/*/src/**/*.test.ts", "apps/dashboard/**/*.test.ts", "packages/*/src/**/*.test.ts", "test/**/*.test.ts"];
const NEVER = ["**/node_modules/**", "**/.next/**", "**/dist/**"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The long files (e2e, browser, pnpm start) mostly wait on slots and processes, not the CPU:
    // three at a time on two cores keeps the suite short without starving them.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    // next-auth imports "next/server" without an extension, which Node's resolver refuses outside Next.
    server: { deps: { inline: ["next-auth"] } },
    projects: [
      {
        extends: true,
        // Unit and in-process tests: no spawned service, no Next app, no browser.
        // Each file in a fresh module graph: sharing one across files cut imports (~2 min) but let a file's
        // leftovers hang another's teardown (test/security/egress after earlier files, never alone).
        test: { name: "fast", include: ALL, exclude: [...NEVER, ...STACK], unstubEnvs: true },
      },
      {
        extends: true,
        test: {
          name: "stack",
          include: STACK,
          exclude: NEVER,
          // The services' production bundles, built once for the run (only when a source changed).
          globalSetup: ["test/setup/bundles.ts"],
        },
      },
    ],
  },
});
