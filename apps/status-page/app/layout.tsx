import type { ReactNode } from "react";
import { currentTranslator } from "../lib/i18n";
import "./globals.css";

export const metadata = { title: "Status" };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { locale } = await currentTranslator();
  return (
    <html lang={locale}>
      <body className="antialiased">{children}</body>
    </html>
  );
}
