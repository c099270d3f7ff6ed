/** The one button of a mail link's page: a plain form, it works without JavaScript. */
export function LinkButton({ action, token, label }: { action: string; token: string; label: string }) {
  return (
    <form method="post" action={action} className="pt-2">
      <input type="hidden" name="token" value={token} />
      <button type="submit" className="rounded-md bg-ink px-4 py-2 font-medium t-on-ink hover:opacity-90">
        {label}
      </button>
    </form>
  );
}
