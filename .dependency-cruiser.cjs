// The import rules `pnpm lint` keeps: no circle anywhere (tests included), packages never reach up into
// apps/, scripts/ or bench/, and no app imports another app. Test code may import test helpers across packages.
const TEST = "(\\.test\\.tsx?$|/testing\\.ts$|/test-harness\\.ts$|/testing/|^packages/testing/|^test/)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle: move the shared piece down into a module both can import.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-package-to-app-or-tooling",
      severity: "error",
      comment: "packages/ sit below apps/, scripts/ and bench/: move what is shared down into a package.",
      from: { path: "^packages/" },
      to: { path: "^(apps|scripts|bench)/" },
    },
    {
      name: "no-app-to-other-app",
      severity: "error",
      comment: "An app never imports another app: move what is shared down into a package.",
      from: { path: "^apps/([^/]+)/", pathNot: TEST },
      to: { path: "^apps/", pathNot: "^apps/$1/" },
    },
    {
      name: "no-test-to-other-app-code",
      severity: "error",
      comment: "A test may start another app through its test harness, never import that app's code.",
      from: { path: "^apps/([^/]+)/" },
      to: { path: "^apps/", pathNot: ["^apps/$1/", TEST] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|\\.next|\\.turbo|\\.data)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types"],
      extensions: [".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
