"use client";
import { buttonClass } from "../ui/ui";

export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  return (
    <main className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
      <h1 className="text-2xl font-semibold">This page could not load</h1>
      <p className="mt-2 max-w-sm text-sm text-zinc-500">The database may be restarting. Nothing was changed; try again in a moment.</p>
      <button type="button" onClick={reset} className={buttonClass("secondary", "mt-6")}>
        Try again
      </button>
    </main>
  );
}
