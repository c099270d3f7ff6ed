import { currentTranslator } from "../lib/i18n";

export const metadata = { title: "Page not found", robots: { index: false } };

export default async function NotFound() {
  const tr = await currentTranslator();
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col justify-center px-6 t-text">
      <p className="text-sm font-medium t-muted">404</p>
      <h1 className="mt-1 text-2xl font-semibold t-heading">{tr.t("notFound.title")}</h1>
      <p className="mt-2">{tr.t("notFound.text")}</p>
    </main>
  );
}
