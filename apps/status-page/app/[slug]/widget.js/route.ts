import { chooseLocale, translator } from "@vigil/core/i18n";
import { openPage } from "../../../lib/page";
import { basePath, siteOrigin } from "../../../lib/site";

export const dynamic = "force-dynamic";

const COLORS = { operational: "#10b981", degraded: "#f59e0b", partial_outage: "#f97316", major_outage: "#ef4444", maintenance: "#3b82f6" };

/**
 * `<script src="…/{slug}/widget.js" async></script>`: a status pill where the tag stands (or in
 * `data-target`'s element), a link to the page filled from `status.json`. Plain DOM, no framework,
 * texts in the page's language (or `?lang=`); the whole file stays well under 5 kB.
 */
export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { page, cache } = await openPage((await params).slug);
  const headers = { ...cache, "content-type": "text/javascript; charset=utf-8", "access-control-allow-origin": "*" };
  if (!page) return new Response("/* no status page here */\n", { status: 404, headers });
  const tr = translator(chooseLocale({ lang: new URL(req.url).searchParams.get("lang"), pageLanguage: page.language }));
  const [origin, base] = await Promise.all([siteOrigin(page), basePath(page.slug)]);
  const texts = Object.fromEntries(Object.keys(COLORS).map((k) => [k, tr.t(`overall.${k as keyof typeof COLORS}`)]));
  const js = `(function(){var s=document.currentScript,u=${JSON.stringify(`${origin}${base}`)},t=${JSON.stringify(texts)},c=${JSON.stringify(COLORS)};
var a=document.createElement("a");a.href=u||"/";a.target="_top";a.rel="noopener";a.className="vigil-status-pill";
a.style.cssText="display:inline-flex;align-items:center;gap:6px;padding:4px 10px;border:1px solid #e2e8f0;border-radius:999px;font:500 13px/1.4 system-ui,sans-serif;color:#0f172a;background:#fff;text-decoration:none";
var d=document.createElement("span");d.style.cssText="width:8px;height:8px;border-radius:50%;background:#94a3b8";var l=document.createElement("span");l.textContent="\u2026";
a.appendChild(d);a.appendChild(l);var g=s&&s.getAttribute("data-target"),e=g&&document.querySelector(g);
if(e)e.appendChild(a);else if(s&&s.parentNode)s.parentNode.insertBefore(a,s);
fetch(u+"/status.json").then(function(r){return r.json()}).then(function(j){var i=j.status.indicator;d.style.background=c[i]||"#94a3b8";l.textContent=t[i]||j.status.description;a.setAttribute("data-indicator",i)}).catch(function(){});})();
`;
  return new Response(js, { headers });
}
