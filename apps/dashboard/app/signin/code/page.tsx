import { redirect } from "next/navigation";
import { SecondFactorForm } from "../../../features/account/account-forms";
import { signOutAction } from "../../../features/signin/actions";
import { publicOrigin } from "../../../lib/env";
import { safeRedirectPath } from "../../../lib/redirect";
import { secondFactorOf } from "../../../lib/second-factor";
import { sessionUser } from "../../../lib/session";
import { CardPage } from "../../../ui/card-page";
import { buttonClass } from "../../../ui/ui";

export const dynamic = "force-dynamic";
export const metadata = { title: "Enter your code" };

/** The second step of signing in, for a session whose user has an authenticator app and has not shown a code yet. */
export default async function SecondFactor({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const next = safeRedirectPath((await searchParams).callbackUrl, publicOrigin());
  const u = await sessionUser();
  if (!u) redirect("/signin");
  if (!(await secondFactorOf(u.id)).pending) redirect(next);
  return (
    <CardPage>
      <h1 className="text-xl font-semibold">Enter your code</h1>
      <p className="mt-1 text-sm text-zinc-500">{u.email} has an authenticator app: enter the code it shows to finish signing in.</p>
      <div className="mt-6">
        <SecondFactorForm callbackUrl={next} />
      </div>
      <form action={signOutAction} className="mt-4 text-center">
        <button type="submit" className={buttonClass("ghost", "text-sm")}>
          Use another account
        </button>
      </form>
    </CardPage>
  );
}
