"use client";
import { RotateCw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { buttonClass, Notice } from "../../ui/ui";

/** The SLA view's error state: the report could not be computed (the database away); nothing was changed. */
export function SlaError({ reset }: { error: Error; reset: () => void }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <div className="grid justify-items-start gap-4">
      <Notice tone="red">
        <p className="font-medium" role="alert">
          The SLA report could not be computed
        </p>
        <p className="mt-1">The database did not answer. Nothing was changed; try again in a moment.</p>
      </Notice>
      {/* The error came from the server: ask it again, then show the segment. */}
      <button
        type="button"
        disabled={pending}
        onClick={() =>
          start(() => {
            router.refresh();
            reset();
          })
        }
        className={buttonClass("secondary")}
      >
        <RotateCw className="size-4" aria-hidden />
        {pending ? "Trying…" : "Try again"}
      </button>
    </div>
  );
}
