import { AckLinkError, acknowledgeByLink, RATE_LIMITS } from "@vigil/core";
import { RateLimitedError } from "@vigil/rate-limit";
import { getDb } from "../../../../lib/db";
import { publicOrigin } from "../../../../lib/env";
import { clientOf, getLimiter } from "../../../../lib/rate-limit";

export const dynamic = "force-dynamic";

/** The confirm page's POST: acknowledges through the signed token, then shows the page again (from the configured URL). */
export async function POST(req: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  try {
    const client = clientOf(req.headers);
    if (client) await getLimiter().take(RATE_LIMITS.ackLinkPerClient, client);
    await acknowledgeByLink(getDb(), token);
  } catch (err) {
    if (err instanceof RateLimitedError)
      return new Response(err.sentence, { status: 429, headers: { "retry-after": String(err.retryAfterS) } });
    if (!(err instanceof AckLinkError)) throw err;
    // The page names the problem (expired, recovered, not valid).
  }
  return Response.redirect(`${publicOrigin()}/ack/${encodeURIComponent(token)}?done=1`, 303);
}
