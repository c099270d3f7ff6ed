import { listMemberships, secondFactorStatus } from "@vigil/core";
import { ChevronLeft } from "lucide-react";
import Link from "next/link";
import { RemoveTotpForm, TotpSetup } from "../../features/account/account-forms";
import { getDb } from "../../lib/db";
import { requireUser } from "../../lib/session";
import { Brand } from "../../ui/brand";
import { Badge, Card, CardHeader, Notice } from "../../ui/ui";

export const dynamic = "force-dynamic";
export const metadata = { title: "Account" };

/** The signed-in person's own settings: their second factor. Audience: any signed-in user, for themselves only. */
export default async function Account({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const u = await requireUser("/account");
  const sp = await searchParams;
  const db = getDb();
  const [status, memberships] = await Promise.all([secondFactorStatus(db, u.id), listMemberships(db, u.id)]);
  const asking = memberships.filter((m) => m.workspace.requireSecondFactor);
  const required = asking.find((m) => String(m.workspace.id) === sp.required);
  return (
    <main className="mx-auto max-w-3xl px-4 py-8">
      <div className="mb-6 flex items-center justify-between">
        <Brand />
        <Link href="/" className="flex items-center gap-1 text-sm text-zinc-600 hover:text-zinc-900">
          <ChevronLeft className="size-4" aria-hidden />
          Back to the dashboard
        </Link>
      </div>
      <h1 className="text-2xl font-semibold">Account</h1>
      <p className="mt-1 text-sm text-zinc-500">Signed in as {u.email}</p>
      {required && !status.enrolled ? (
        <div className="mt-4" data-testid="second-factor-required">
          <Notice tone="amber">
            The workspace “{required.workspace.name ?? required.workspace.id}” asks every member to sign in with a second factor. Set up an
            authenticator app below to use it.
          </Notice>
        </div>
      ) : null}
      <Card className="mt-6">
        <CardHeader
          title="Second factor (authenticator app)"
          description="After the e-mail link, sign-in asks for the 6-digit code of your authenticator app."
          action={status.enrolled ? <Badge tone="green">on</Badge> : <Badge>off</Badge>}
        />
        <div className="px-5 py-4">
          {status.enrolled ? (
            <div className="grid gap-4">
              <p className="text-sm text-zinc-700" data-testid="totp-on">
                Your authenticator app is set up. {status.recoveryCodesLeft} of 10 recovery codes left.
                {asking.length > 0 ? ` Required by: ${asking.map((m) => m.workspace.name ?? m.workspace.id).join(", ")}.` : ""}
              </p>
              <RemoveTotpForm />
            </div>
          ) : (
            <TotpSetup />
          )}
        </div>
      </Card>
    </main>
  );
}
