import { AckLinkError, describeAckLink, RATE_LIMITS } from "@vigil/core";
import { RateLimitedError } from "@vigil/rate-limit";
import { BellOff } from "lucide-react";
import { headers } from "next/headers";
import { getDb } from "../../../lib/db";
import { clientOf, getLimiter } from "../../../lib/rate-limit";
import { CardPage } from "../../../ui/card-page";
import { buttonClass, Notice } from "../../../ui/ui";

export const dynamic = "force-dynamic";
export const metadata = { title: "Acknowledge alert", robots: { index: false } };

/**
 * Audience: whoever holds the link from an alert (signed, expiring). Opening it changes nothing — mail
 * scanners follow links — the button's POST acknowledges.
 */
export default async function AckPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ done?: string }>;
}) {
  const { token } = await params;
  const { done } = await searchParams;
  let problem: string | null = null;
  let info: Awaited<ReturnType<typeof describeAckLink>> | null = null;
  try {
    const client = clientOf(await headers());
    if (client) await getLimiter().take(RATE_LIMITS.ackLinkPerClient, client);
    info = await describeAckLink(getDb(), token);
  } catch (err) {
    if (err instanceof AckLinkError || err instanceof RateLimitedError)
      problem = err instanceof RateLimitedError ? err.sentence : err.message;
    else throw err;
  }
  return (
    <CardPage>
      <div className="mb-3 flex size-10 items-center justify-center rounded-full bg-amber-50 text-amber-600">
        <BellOff className="size-5" aria-hidden />
      </div>
      <h1 className="text-xl font-semibold">Acknowledge alert</h1>
      {problem || !info ? (
        <div className="mt-4">
          <Notice tone="red">{problem}</Notice>
        </div>
      ) : (
        <>
          <p className="mt-1 text-sm text-zinc-500">
            <strong className="text-zinc-800">{info.monitorName || "A monitor"}</strong> is {info.status === "error" ? "down" : info.status}{" "}
            since {new Date(info.since).toISOString().replace("T", " ").slice(0, 16)} UTC.
            {info.channel ? ` This link came with the alert sent to “${info.channel}”.` : ""}
          </p>
          <div className="mt-6">
            {info.acknowledged ? (
              <Notice tone={done ? "indigo" : "amber"}>
                Acknowledged by {info.acknowledged.actor} at{" "}
                {new Date(info.acknowledged.createdAt).toISOString().replace("T", " ").slice(0, 16)} UTC. Reminders and escalation have
                stopped.
              </Notice>
            ) : !info.open ? (
              <Notice>This alert is over (the monitor recovered or changed since); there is nothing to acknowledge.</Notice>
            ) : (
              <form method="post" action={`/ack/${token}/confirm`}>
                <button type="submit" className={buttonClass("primary", "w-full")}>
                  Acknowledge — stop reminders and escalation
                </button>
              </form>
            )}
          </div>
        </>
      )}
    </CardPage>
  );
}
