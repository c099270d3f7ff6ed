"use client";
import { Printer } from "lucide-react";
import { buttonClass } from "../../ui/ui";

/** Opens the browser's print dialog, where "Save as PDF" is one of the printers. */
export function PrintButton() {
  return (
    <button type="button" onClick={() => window.print()} className={buttonClass("primary")}>
      <Printer className="size-4" aria-hidden />
      Print or save as PDF
    </button>
  );
}
