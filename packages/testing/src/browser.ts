import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
];

// Kept on globalThis: one Chromium per worker process even when test modules are evaluated again.
const SHARED = Symbol.for("vigil.testing.chromium");
const holder = globalThis as { [SHARED]?: Promise<Browser> };

/** Debian's Chromium (never a downloaded browser), headless, quiet on the network: one per worker process. */
function sharedChromium(): Promise<Browser> {
  if (!holder[SHARED]) {
    const launched = chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });
    holder[SHARED] = launched;
    launched.then(
      (b) => {
        b.on("disconnected", () => {
          if (holder[SHARED] === launched) delete holder[SHARED];
        });
        // Playwright kills what it launched when the process exits; closing first lets Chromium end cleanly.
        process.once("beforeExit", () => void b.close().catch(() => {}));
      },
      () => delete holder[SHARED],
    );
  }
  return holder[SHARED];
}

/**
 * The worker's Chromium, seen as a browser of the caller's own: the contexts (and pages) it opens are its own,
 * and `close()` closes those, not Chromium, which the next test file of the worker reuses.
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await sharedChromium();
  const mine = new Set<BrowserContext>();
  const track = (ctx: BrowserContext) => {
    mine.add(ctx);
    ctx.once("close", () => mine.delete(ctx));
    return ctx;
  };
  return new Proxy(browser, {
    get(target, prop) {
      if (prop === "newContext") return async (...args: Parameters<Browser["newContext"]>) => track(await target.newContext(...args));
      if (prop === "newPage")
        return async (...args: Parameters<Browser["newPage"]>) => {
          const page = await target.newPage(...args);
          track(page.context());
          return page;
        };
      if (prop === "contexts") return () => [...mine];
      if (prop === "close") return async () => void (await Promise.all([...mine].map((c) => c.close().catch(() => {}))));
      const v = Reflect.get(target, prop);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

const SHOTS = fileURLToPath(new URL("../../../docs/screenshots", import.meta.url));
/** A full-page screenshot kept under docs/screenshots/<name>.png, to look at and commit. */
export async function screenshot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}
