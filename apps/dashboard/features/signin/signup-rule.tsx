import { signupMode } from "@vigil/core";
import { getDb } from "../../lib/db";
import { rules } from "../../lib/instance-rules";

const TEXT = {
  open: "New here? Signing in creates your account and a workspace.",
  invite: "This instance is by invitation: sign in with an address an admin invited.",
  closed: "Sign-up is closed: only invited addresses and the instance's admins sign in.",
} as const;

/** The line under "Sign in" that says who may sign up here. */
export async function SignUpRule() {
  const mode = await signupMode(getDb(), rules());
  return (
    <p className="mt-1 text-sm text-zinc-500" data-testid="signup-rule">
      {TEXT[mode]}
    </p>
  );
}
