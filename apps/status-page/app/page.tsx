export default function Home() {
  return (
    <main>
      <h1>Status pages</h1>
      <p>Open a status page at its own address, such as /acme.</p>
    </main>
  );
}
