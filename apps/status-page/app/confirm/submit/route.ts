import { actOnLink } from "../../../lib/links";

export const dynamic = "force-dynamic";

/** The "Confirm subscription" button of the confirm page. */
export const POST = (req: Request) => actOnLink(req, "confirm");
