import type { ReactNode } from "react";
import "./globals.css";

export const metadata = { title: { default: "Vigil", template: "%s · Vigil" } };
export const viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
