import { loadMaintenanceHistory, loadReportHistory } from "@vigil/core";
import { translator } from "@vigil/core/i18n";
import { Feed } from "feed";
import { getDb } from "./data";
import { renderMarkdown } from "./markdown";
import { type FoundPage, openPage } from "./page";
import { basePath, siteOrigin } from "./site";

/** Reports (with their whole timeline) and maintenance windows, newest first. */
export async function buildFeed(page: FoundPage, origin: string, base: string): Promise<Feed> {
  const [reports, windows] = await Promise.all([
    loadReportHistory(getDb(), page.id, { limit: 50 }),
    loadMaintenanceHistory(getDb(), page.id, 50),
  ]);
  const home = `${origin}${base || "/"}`;
  // A feed has one reader language: the page's own.
  const tr = translator(page.language);
  const items = [
    ...reports.map((r) => ({
      title: `${r.title} (${tr.t(`report.${r.status}`)})`,
      id: `${origin}${base}/reports/${r.id}`,
      link: `${origin}${base}/reports/${r.id}`,
      date: new Date(r.updates[0]?.date ?? r.updatedAt),
      published: new Date(r.createdAt),
      description: r.updates[0]?.message ?? "",
      content: r.updates
        .map((u) => `<p><strong>${tr.t(`report.${u.status}`)}</strong> · ${tr.dateTime(u.date)}</p>${renderMarkdown(u.message)}`)
        .join("\n"),
    })),
    ...windows.map((m) => ({
      title: `Maintenance: ${m.title}`,
      id: `${origin}${base}#maintenance-${m.id}`,
      link: home,
      date: new Date(m.startsAt),
      description: `${tr.dateTime(m.startsAt)} – ${tr.dateTime(m.endsAt)}${m.message ? `. ${m.message}` : ""}`,
      content: `<p>${tr.dateTime(m.startsAt)} – ${tr.dateTime(m.endsAt)}</p>${m.message ? renderMarkdown(m.message) : ""}`,
    })),
  ].sort((a, b) => b.date.getTime() - a.date.getTime());
  const feed = new Feed({
    title: `${page.title} status`,
    description: page.description || `Incidents and maintenance of ${page.title}`,
    id: home,
    link: home,
    language: "en",
    updated: items[0]?.date ?? new Date(page.updatedAt),
    generator: page.whiteLabel ? false : "Vigil",
    copyright: page.title,
    feedLinks: { rss: `${origin}${base}/rss`, atom: `${origin}${base}/atom` },
  });
  for (const item of items) feed.addItem(item);
  return feed;
}

const FEED_TYPES = { rss: "application/rss+xml", atom: "application/atom+xml" } as const;

/** `/{slug}/rss` and `/{slug}/atom`: links from the configured public URL, never from request headers. */
export async function feedResponse(slug: string, kind: keyof typeof FEED_TYPES): Promise<Response> {
  const { page, cache } = await openPage(slug);
  if (!page) return new Response("Not found\n", { status: 404, headers: cache });
  const feed = await buildFeed(page, await siteOrigin(page), await basePath(page.slug));
  return new Response(kind === "rss" ? feed.rss2() : feed.atom1(), {
    headers: { "content-type": `${FEED_TYPES[kind]}; charset=utf-8`, ...cache },
  });
}
