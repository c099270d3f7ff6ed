export const metadata = { title: "Page not found", robots: { index: false } };

export default function NotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col justify-center px-6 t-text">
      <p className="text-sm font-medium t-muted">404</p>
      <h1 className="mt-1 text-2xl font-semibold t-heading">There is no status page here</h1>
      <p className="mt-2">Check the address; the page may have moved or been unpublished.</p>
    </main>
  );
}
