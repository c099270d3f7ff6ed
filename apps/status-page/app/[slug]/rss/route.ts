import { buildFeed } from "../../../lib/feeds";
import { openPage, PUBLIC_CACHE } from "../../../lib/page";
import { basePath, siteOrigin } from "../../../lib/site";

export const dynamic = "force-dynamic";

export async function GET(_req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const page = await openPage((await params).slug);
  if (!page) return new Response("Not found\n", { status: 404 });
  const feed = await buildFeed(page, await siteOrigin(), await basePath(page.slug));
  return new Response(feed.rss2(), { headers: { "content-type": "application/rss+xml; charset=utf-8", "cache-control": PUBLIC_CACHE } });
}
