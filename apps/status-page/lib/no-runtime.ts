// Public pages have no client component and every feature works without JavaScript (forms post to route
// handlers), so what Next adds for hydration is pure weight: ~170 kB of runtime plus the page's data a second
// time as an inline payload. Visitors get the HTML without it.

/** Next's scripts: its chunks, the bundler bootstrap and the inline payload (`self.__next_f`). */
const RUNTIME_SCRIPT = /<script\b[^>]*>(?:[^<]|<(?!\/script>))*<\/script>/g;
const OURS = (tag: string) => !/src="\/_next\/|__next_f|TURBOPACK|id="_R_"/.test(tag);
const PRELOAD = /<link rel="(?:preload|modulepreload)" as="script"[^>]*\/?>/g;
/** Streamed Suspense boundaries are moved into place by script: such a page keeps its runtime. */
const NEEDS_SCRIPT = /<template id="B:|\$RC\(/;

export function withoutRuntime(html: string): string {
  if (NEEDS_SCRIPT.test(html)) return html;
  return html.replace(RUNTIME_SCRIPT, (tag) => (OURS(tag) ? tag : "")).replace(PRELOAD, "");
}
