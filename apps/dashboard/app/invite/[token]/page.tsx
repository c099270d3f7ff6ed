import { findInvitation } from "@vigil/core";
import { UserPlus } from "lucide-react";
import Link from "next/link";
import { AcceptInviteForm } from "../../../features/members/invite-forms";
import { signOutAction } from "../../../features/signin/actions";
import { getDb } from "../../../lib/db";
import { currentUser } from "../../../lib/session";
import { CardPage } from "../../../ui/card-page";
import { buttonClass, Notice } from "../../../ui/ui";

export const dynamic = "force-dynamic";
export const metadata = { title: "Invitation" };

export default async function Invite({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const found = await findInvitation(getDb(), token);
  const u = await currentUser();
  const inv = found?.invitation;
  const problem = !inv
    ? "This invitation link is not valid. Ask whoever invited you for a new one."
    : inv.acceptedAt !== null
      ? "This invitation was already used."
      : inv.expiresAt <= Date.now()
        ? "This invitation has expired. Ask whoever invited you for a new one."
        : null;
  return (
    <CardPage>
      <div className="mb-3 flex size-10 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
        <UserPlus className="size-5" aria-hidden />
      </div>
      {problem || !inv ? (
        <>
          <h1 className="text-xl font-semibold">Invitation</h1>
          <div className="mt-4">
            <Notice tone="red">{problem}</Notice>
          </div>
          {u ? (
            <Link href="/" className={buttonClass("secondary", "mt-4 w-full")}>
              Go to your dashboard
            </Link>
          ) : null}
        </>
      ) : (
        <>
          <h1 className="text-xl font-semibold">Join “{found.workspaceName}”</h1>
          <p className="mt-1 text-sm text-zinc-500">
            You are invited as <strong className="text-zinc-800">{inv.role}</strong>. The invitation is for {inv.email}.
          </p>
          <div className="mt-6">
            {!u ? (
              <Link href={`/signin?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`} className={buttonClass("primary", "w-full")}>
                Sign in to accept
              </Link>
            ) : (u.email ?? "").toLowerCase() !== inv.email.toLowerCase() ? (
              <div className="grid gap-3">
                <Notice>
                  You are signed in as {u.email}. Sign in as {inv.email} to accept.
                </Notice>
                <form action={signOutAction}>
                  <button type="submit" className={buttonClass("secondary", "w-full")}>
                    Sign out
                  </button>
                </form>
              </div>
            ) : (
              <AcceptInviteForm token={token} />
            )}
          </div>
        </>
      )}
    </CardPage>
  );
}
