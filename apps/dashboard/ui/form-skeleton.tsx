/** What a form page shows while the server gathers its choices. */
export function FormSkeleton({ title }: { title: string }) {
  return (
    <div aria-busy="true" aria-live="polite">
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="sr-only">Loading…</p>
      <div className="grid gap-5">
        {[0, 1, 2].map((i) => (
          <div key={i} className="h-40 animate-pulse rounded-xl border border-zinc-200 bg-zinc-100/70" />
        ))}
      </div>
    </div>
  );
}
