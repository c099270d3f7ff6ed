import { MailCheck } from "lucide-react";
import Link from "next/link";
import { getEnv, signInMail } from "../../../lib/env";
import { Brand } from "../../../ui/brand";

export const dynamic = "force-dynamic";
export const metadata = { title: "Check your email" };

export default function CheckEmail() {
  const logged = signInMail(getEnv()) === "log";
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm text-center">
        <div className="mb-8 flex justify-center">
          <Brand />
        </div>
        <div className="rounded-xl border border-zinc-200 bg-white p-6 shadow-sm">
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
        </div>
      </div>
    </main>
  );
}
