import { feedResponse } from "../../../lib/feeds";

export const dynamic = "force-dynamic";

export async function GET(_req: Request, { params }: { params: Promise<{ slug: string }> }) {
  return feedResponse((await params).slug, "atom");
}
