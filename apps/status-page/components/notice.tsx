import type { ReactNode } from "react";

/** The small page that answers a link from a mail. */
export function Notice({ title, tone, children }: { title: string; tone: "ok" | "bad"; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-page px-4">
      <div className="w-full max-w-md rounded-xl border b-line bg-surface p-6 shadow-sm">
        <span className={`inline-block h-2 w-10 rounded-full ${tone === "ok" ? "bg-emerald-500" : "bg-amber-500"}`} />
        <h1 className="mt-3 text-xl font-semibold t-heading">{title}</h1>
        <div className="mt-2 space-y-2 t-text">{children}</div>
      </div>
    </main>
  );
}
