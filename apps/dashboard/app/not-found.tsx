import Link from "next/link";
import { buttonClass } from "../ui/ui";

export default function NotFound() {
  return (
    <main className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
      <p className="text-sm font-medium text-indigo-600">404</p>
      <h1 className="mt-1 text-2xl font-semibold">Not found</h1>
      <p className="mt-2 max-w-sm text-sm text-zinc-500">This page does not exist, or it belongs to a workspace you are not a member of.</p>
      <Link href="/" className={buttonClass("secondary", "mt-6")}>
        Back to your workspace
      </Link>
    </main>
  );
}
