import { publicPage } from "../../../lib/data";
import { OVERALL_TEXT, STATE_TEXT } from "../../../lib/format";
import { openPage } from "../../../lib/page";
import { basePath, siteOrigin } from "../../../lib/site";

export const dynamic = "force-dynamic";

/** The page's state for machines: overall, each component, open incidents and maintenance. */
export async function GET(_req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { page, cache } = await openPage((await params).slug);
  if (!page) return Response.json({ error: { code: "not_found", message: "no status page here" } }, { status: 404, headers: cache });
  const [view, origin, base] = await Promise.all([publicPage(page), siteOrigin(page), basePath(page.slug)]);
  const groups = new Map(view.groups.map((g) => [g.id, g.name]));
  const body = {
    page: { slug: view.page.slug, title: view.page.title, url: `${origin}${base || "/"}` },
    status: { indicator: view.overall, description: OVERALL_TEXT[view.overall] },
    components: view.components.map((c) => ({
      id: c.id,
      name: c.name,
      group: c.groupId === null ? null : (groups.get(c.groupId) ?? null),
      status: c.state,
      description: STATE_TEXT[c.state],
      uptime90d: c.uptime,
    })),
    incidents: view.activeReports.map((r) => ({
      id: r.id,
      title: r.title,
      status: r.status,
      url: `${origin}${base}/reports/${r.id}`,
      createdAt: new Date(r.createdAt).toISOString(),
      updatedAt: new Date(r.updates[0]?.date ?? r.updatedAt).toISOString(),
      components: r.components.map((c) => ({ id: c.id, impact: c.impact })),
    })),
    maintenances: view.maintenances.map((m) => ({
      id: m.id,
      title: m.title,
      active: m.active,
      startsAt: new Date(m.startsAt).toISOString(),
      endsAt: new Date(m.endsAt).toISOString(),
    })),
    updatedAt: new Date(view.now).toISOString(),
  };
  return Response.json(body, { headers: { ...cache, "access-control-allow-origin": "*" } });
}
