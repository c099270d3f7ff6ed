import { slaDownload } from "../../../../../../../features/sla/sla";

export const dynamic = "force-dynamic";

/** The monitor's SLA report as CSV or JSON (`format`), for any member, viewers included (see slaDownload). */
export const GET = (req: Request, { params }: { params: Promise<{ ws: string; id: string }> }) => slaDownload(req, "monitor", params);
