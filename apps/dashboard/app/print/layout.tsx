import type { ReactNode } from "react";
import "./print.css";

export const dynamic = "force-dynamic";
export const metadata = { robots: { index: false } };

/** Pages meant for paper: no workspace navigation, only what the root layout gives. */
export default function PrintLayout({ children }: { children: ReactNode }) {
  return <div className="min-h-screen bg-white">{children}</div>;
}
