"use client";
import { RotateCw } from "lucide-react";
import { buttonClass, Notice } from "./ui";

/** The SLA view's error state: the report could not be computed (the database away); nothing was changed. */
export function SlaError({ reset }: { error: Error; reset: () => void }) {
  return (
    <div className="grid justify-items-start gap-4">
      <Notice tone="red">
        <p className="font-medium">The SLA report could not be computed</p>
        <p className="mt-1">The database did not answer in time. Nothing was changed; try again in a moment.</p>
      </Notice>
      <button type="button" onClick={reset} className={buttonClass("secondary")}>
        <RotateCw className="size-4" aria-hidden />
        Try again
      </button>
    </div>
  );
}
