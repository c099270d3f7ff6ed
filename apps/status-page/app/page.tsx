export default function Home() {
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col justify-center px-6 t-text">
      <h1 className="text-2xl font-semibold t-heading">Status pages</h1>
      <p className="mt-2">Each status page lives at its own address, such as /acme, or on its own domain.</p>
    </main>
  );
}
