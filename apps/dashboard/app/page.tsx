import { redirect } from "next/navigation";
import { memberships } from "../lib/session";

export const dynamic = "force-dynamic";

/** Signed in: straight to the first workspace (created on first sign-in). */
export default async function Home() {
  const list = await memberships();
  redirect(`/w/${list[0]!.workspace.id}`);
}
