import Link from "next/link";
import { redirect } from "next/navigation";
import { signOutAction } from "../features/signin/actions";
import { isAdmin } from "../lib/instance";
import { memberships, requireUser } from "../lib/session";
import { CardPage } from "../ui/card-page";
import { buttonClass, Notice } from "../ui/ui";

export const dynamic = "force-dynamic";

/** Signed in: straight to the first workspace (created on first sign-in when the sign-up rule allows). */
export default async function Home() {
  const list = await memberships();
  if (list[0]) redirect(`/w/${list[0].workspace.id}`);
  const u = await requireUser();
  const admin = await isAdmin();
  return (
    <CardPage>
      <h1 className="text-xl font-semibold">No workspace yet</h1>
      <div className="mt-4">
        <Notice>
          You are signed in as {u.email}, but you belong to no workspace on this instance. Open the invitation link you were mailed, or ask
          a workspace admin to invite this address.
        </Notice>
      </div>
      {admin ? (
        <Link href="/instance" className={buttonClass("primary", "mt-4 w-full")}>
          Open the instance area
        </Link>
      ) : null}
      <form action={signOutAction} className="mt-3">
        <button type="submit" className={buttonClass("secondary", "w-full")}>
          Sign out
        </button>
      </form>
    </CardPage>
  );
}
