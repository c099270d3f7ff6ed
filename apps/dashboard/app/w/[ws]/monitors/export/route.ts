import { getMonitor, listMonitors, NotFoundError } from "@vigil/core";
import { serializeMonitorsYaml } from "@vigil/monitors-yaml";
import { getDb } from "../../../../../lib/db";
import { currentUser, downloadMember, SecondFactorRequired } from "../../../../../lib/session";

const notFound = () => new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
const isId = (s: string | null) => s !== null && /^\d{1,15}$/.test(s);

/**
 * The workspace's monitors (or one, with ?id=) as a monitors file, the CLI's `import` format.
 * Secrets leave as `${VAR}` placeholders; uploading the file back keeps the stored values.
 */
export async function GET(req: Request, { params }: { params: Promise<{ ws: string }> }) {
  const u = await currentUser();
  if (!u) return new Response(null, { status: 303, headers: { location: "/signin" } });
  const { ws } = await params;
  if (!isId(ws)) return notFound();
  try {
    const m = await downloadMember(Number(ws), u.id);
    const id = new URL(req.url).searchParams.get("id");
    if (id !== null && !isId(id)) return notFound();
    const monitors = id === null ? await listMonitors(getDb(), m.workspace.id) : [await getMonitor(getDb(), m.workspace.id, Number(id))];
    const slug = (m.workspace.slug ?? `workspace-${m.workspace.id}`).replace(/[^a-z0-9-]/gi, "");
    const name = id === null ? `${slug}-monitors.yaml` : `${monitors[0]!.key || `monitor-${id}`}.yaml`.replace(/[^\w.-]/g, "-");
    return new Response(serializeMonitorsYaml(monitors), {
      headers: {
        "content-type": "application/yaml; charset=utf-8",
        "content-disposition": `attachment; filename="${name}"`,
        "cache-control": "no-store",
      },
    });
  } catch (err) {
    if (err instanceof SecondFactorRequired) return err.response();
    if (err instanceof NotFoundError) return notFound();
    throw err;
  }
}
