import { BADGE_COLORS, renderBadge, uptimeColor } from "../../../lib/badge";
import { publicPage } from "../../../lib/data";
import { formatUptime, OVERALL_TEXT, STATE_TEXT } from "../../../lib/format";
import { openPage } from "../../../lib/page";

export const dynamic = "force-dynamic";

const WINDOWS: Record<string, number> = { "1d": 1, "7d": 7, "30d": 30, "90d": 90 };
// Embeds (READMEs, dashboards) refetch often; a shared cache keeps them cheap and at most ~30 s old.
const BADGE_CACHE = "public, max-age=15, s-maxage=15, stale-while-revalidate=30";
const svg = (body: string, status = 200, cache: Record<string, string> = { "cache-control": BADGE_CACHE }) =>
  new Response(body, {
    status,
    headers: {
      "content-type": "image/svg+xml; charset=utf-8",
      ...(status === 200 ? cache : { "cache-control": "no-store" }),
      "x-content-type-options": "nosniff",
    },
  });

/**
 * `/{slug}/badge.svg` the page's status; `?component=<id>` one component's; `?type=uptime&window=30d` the
 * uptime over 1d, 7d, 30d or 90d instead; `?label=` overrides the left text.
 */
export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { page, cache } = await openPage((await params).slug, BADGE_CACHE);
  const url = new URL(req.url);
  const ok = (body: string) => svg(body, 200, cache);
  if (!page) return svg(renderBadge("status", "not found", "#94a3b8"), 404);
  const type = url.searchParams.get("type") === "uptime" ? "uptime" : "status";
  const windowKey = url.searchParams.get("window") ?? "30d";
  const days = WINDOWS[windowKey];
  if (!days) return svg(renderBadge("badge", "window must be 1d, 7d, 30d or 90d", "#94a3b8"), 400);
  const componentParam = url.searchParams.get("component");
  const view = await publicPage(page, type === "uptime" ? days : 90);
  const label = url.searchParams.get("label")?.slice(0, 40);
  if (componentParam !== null) {
    const c = view.components.find((x) => String(x.id) === componentParam);
    if (!c) return svg(renderBadge("status", "no such component", "#94a3b8"), 404);
    if (type === "uptime") return ok(renderBadge(label ?? `${c.name} uptime ${windowKey}`, formatUptime(c.uptime), uptimeColor(c.uptime)));
    return ok(renderBadge(label ?? c.name, STATE_TEXT[c.state].toLowerCase(), BADGE_COLORS[c.state]));
  }
  if (type === "uptime") {
    let total = 0;
    let up = 0;
    for (const c of view.components)
      for (const d of c.days) {
        total += d.checks;
        up += d.checks - d.errors;
      }
    const u = total > 0 ? up / total : null;
    return ok(renderBadge(label ?? `uptime ${windowKey}`, formatUptime(u), uptimeColor(u)));
  }
  return ok(renderBadge(label ?? "status", OVERALL_TEXT[view.overall].toLowerCase(), BADGE_COLORS[view.overall]));
}
