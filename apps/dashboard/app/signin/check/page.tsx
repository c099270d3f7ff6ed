import { MailCheck } from "lucide-react";
import Link from "next/link";
import { getEnv, signInMail } from "../../../lib/env";
import { CardPage } from "../../../ui/card-page";

export const dynamic = "force-dynamic";
export const metadata = { title: "Check your email" };

export default function CheckEmail() {
  const logged = signInMail(getEnv()) === "log";
  return (
    <CardPage centered>
      <div className="mx-auto mb-3 flex size-10 items-center justify-center rounded-full bg-emerald-50 text-emerald-600">
        <MailCheck className="size-5" aria-hidden />
      </div>
      <h1 className="text-xl font-semibold">Check your email</h1>
      <p className="mt-2 text-sm text-zinc-600">
        {logged
          ? "No mail server is configured, so the sign-in link was printed in the dashboard's log (look for “sign-in link”)."
          : "We sent you a sign-in link. It works once and expires in 15 minutes."}
      </p>
      <Link href="/signin" className="mt-4 inline-block text-sm text-indigo-600 hover:underline">
        Use another address
      </Link>
    </CardPage>
  );
}
