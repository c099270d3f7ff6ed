// `pnpm start`: the whole service on its embedded defaults. The build step runs in a child that exits (no
// compiler stays resident), then this process becomes the compiled launcher.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const prepare = spawnSync(process.execPath, ["--import", "tsx", "scripts/prepare-local.ts"], { cwd: root, stdio: "inherit" });
if (prepare.status !== 0) process.exit(prepare.status ?? 1);
await import("./dist/launcher.js");
