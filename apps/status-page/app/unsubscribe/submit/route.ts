import { actOnLink } from "../../../lib/links";

export const dynamic = "force-dynamic";

/** The "Unsubscribe" button of the unsubscribe page. */
export const POST = (req: Request) => actOnLink(req, "unsubscribe");
