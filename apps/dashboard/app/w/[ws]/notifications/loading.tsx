export default function Loading() {
  return (
    <div className="animate-pulse" role="status" aria-busy="true" aria-label="Loading notification channels">
      <div className="mb-6 h-8 w-56 rounded bg-zinc-200" />
      <div className="h-64 rounded-xl border border-zinc-200 bg-white" />
    </div>
  );
}
