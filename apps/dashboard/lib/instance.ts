import { isInstanceAdmin } from "@vigil/core";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "./db";
import { rules } from "./instance-rules";
import { currentUser, type SignedIn } from "./session";

/** Whether the signed-in user is an instance admin (VIGIL_ADMIN_EMAILS or the instance's first user). */
export const isAdmin = cache(async (): Promise<boolean> => {
  const u = await currentUser();
  return u ? isInstanceAdmin(getDb(), u, rules()) : false;
});

/** The instance area's audience: instance admins; everyone else (signed in or not) gets the same 404. */
export async function requireInstanceAdmin(): Promise<SignedIn> {
  const u = await currentUser();
  if (!u || !(await isInstanceAdmin(getDb(), u, rules()))) notFound();
  return u;
}

/** For server actions: the acting instance admin as an audit actor, or a 404. */
export async function instanceActor(): Promise<string> {
  const u = await currentUser();
  if (!u) redirect("/signin");
  if (!(await isInstanceAdmin(getDb(), u, rules()))) notFound();
  return `instance-admin:${u.id}`;
}
