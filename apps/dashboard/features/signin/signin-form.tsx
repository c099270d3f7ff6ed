"use client";
import { Send } from "lucide-react";
import { useActionState } from "react";
import { FormError } from "../../ui/form-state";
import { Field, Input, PendingSubmit } from "../../ui/ui";
import { signInWithEmail } from "./actions";

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action, pending] = useActionState(signInWithEmail, {});
  return (
    <form action={action} className="grid gap-4" noValidate>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <Field label="Email" name="email" error={state.fields?.email}>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          required
          invalid={!!state.fields?.email}
          aria-describedby="email-error"
        />
      </Field>
      <FormError state={state} />
      <PendingSubmit pending={pending} icon={Send} busy="Sending…" className="w-full">
        Email me a sign-in link
      </PendingSubmit>
    </form>
  );
}
