import type { ReactNode } from "react";
import { Brand } from "./brand";
import { cx } from "./ui";

/** A page of one card under the brand, centred: sign-in, invitations, acknowledgements. */
export function CardPage({ centered, children }: { centered?: boolean; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className={cx("w-full max-w-sm", centered && "text-center")}>
        <div className="mb-8 flex justify-center">
          <Brand />
        </div>
        <div className="rounded-xl border border-zinc-200 bg-white p-6 shadow-sm">{children}</div>
      </div>
    </main>
  );
}
