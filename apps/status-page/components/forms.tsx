import type { PublicPageMeta } from "@vigil/core";
import type { Translator } from "@vigil/core/i18n";
import { card } from "./shell";

const SUBSCRIBE_NOTES = {
  sent: true,
  invalid: false,
  off: false,
  unavailable: false,
  slackSent: true,
  invalidUrl: false,
  invalidSlackUrl: false,
  unverified: false,
  taken: false,
} as const;

function subscribeNote(tr: Translator, note: string | undefined, wait: string | undefined) {
  if (note === "limited")
    return { text: tr.t("subscribe.limited", { seconds: /^\d{1,6}$/.test(wait ?? "") ? Number(wait) : 60 }), ok: false };
  if (!note || !Object.hasOwn(SUBSCRIBE_NOTES, note)) return undefined;
  const key = note as keyof typeof SUBSCRIBE_NOTES;
  return { text: tr.t(`subscribe.${key}`), ok: SUBSCRIBE_NOTES[key] };
}

const INPUT =
  "rounded-md border b-line bg-surface px-3 py-2 t-heading focus:border-slate-500 focus:outline-none focus:ring-2 focus:ring-slate-300";
const INLINE_INPUT =
  "min-w-0 flex-1 rounded-md border b-line bg-surface px-3 py-2 t-heading placeholder:text-slate-400 focus:border-slate-500 focus:outline-none focus:ring-2 focus:ring-slate-300";

/** An input beside a label only screen readers read (the inline subscribe forms). */
function HiddenLabelInput(props: { id: string; label: string; type: string; placeholder: string; autoComplete?: string }) {
  return (
    <>
      <label htmlFor={props.id} className="sr-only">
        {props.label}
      </label>
      <input
        id={props.id}
        name={props.id}
        type={props.type}
        required
        autoComplete={props.autoComplete}
        placeholder={props.placeholder}
        className={INLINE_INPUT}
      />
    </>
  );
}

const ENDPOINT_NOTES = new Set(["slackSent", "invalidUrl", "invalidSlackUrl", "unverified", "taken"]);

/** Plain forms (e-mail; webhook or Slack URL): they work without JavaScript. */
export function SubscribeForm({ base, note, wait, tr }: { base: string; note?: string; wait?: string; tr: Translator }) {
  const msg = subscribeNote(tr, note, wait);
  return (
    <section id="subscribe" className={`${card} p-5`}>
      <h2 className="font-semibold t-heading">{tr.t("subscribe.title")}</h2>
      <p className="mt-1 text-sm t-muted">{tr.t("subscribe.intro")}</p>
      <form method="post" action={`${base}/subscribe?lang=${tr.locale}`} className="mt-4 flex flex-col gap-2 sm:flex-row">
        <HiddenLabelInput id="email" label={tr.t("subscribe.email")} type="email" autoComplete="email" placeholder="you@example.com" />
        <button type="submit" className="rounded-md bg-ink px-4 py-2 font-medium t-on-ink hover:opacity-90">
          {tr.t("subscribe.submit")}
        </button>
      </form>
      {msg ? (
        <p role="status" className={`mt-3 text-sm ${msg.ok ? "text-emerald-700" : "text-red-700"}`}>
          {msg.text}
        </p>
      ) : null}
      <details className="mt-4 border-t b-line pt-3" open={note !== undefined && ENDPOINT_NOTES.has(note)}>
        <summary className="cursor-pointer text-sm font-medium t-heading">{tr.t("subscribe.endpointTitle")}</summary>
        <p className="mt-2 text-sm t-muted">{tr.t("subscribe.endpointIntro")}</p>
        <form method="post" action={`${base}/subscribe?lang=${tr.locale}`} className="mt-3 flex flex-col gap-2 sm:flex-row">
          <label htmlFor="channel" className="sr-only">
            {tr.t("subscribe.endpointTitle")}
          </label>
          <select id="channel" name="channel" className="rounded-md border b-line bg-surface px-2 py-2 text-sm t-heading">
            <option value="webhook">{tr.t("subscribe.channelWebhook")}</option>
            <option value="slack">{tr.t("subscribe.channelSlack")}</option>
          </select>
          <HiddenLabelInput id="url" label={tr.t("subscribe.url")} type="url" placeholder="https://" />
          <button type="submit" className="rounded-md border b-line bg-surface px-4 py-2 font-medium t-heading hover:bg-page">
            {tr.t("subscribe.endpointSubmit")}
          </button>
        </form>
      </details>
    </section>
  );
}

const AUTH_NOTES = { wrong: "gate.wrong", locked: "gate.locked" } as const;

export function PasswordGate({ page, base, note, tr }: { page: PublicPageMeta; base: string; note?: string; tr: Translator }) {
  const noteKey = note && Object.hasOwn(AUTH_NOTES, note) ? AUTH_NOTES[note as keyof typeof AUTH_NOTES] : undefined;
  return (
    <div className={`theme-${page.theme} flex min-h-screen items-center justify-center bg-page px-4`}>
      <form method="post" action={`${base}/unlock?lang=${tr.locale}`} className={`${card} w-full max-w-sm p-6`}>
        {/* biome-ignore lint/performance/noImgElement: a logo from any host the page owner names; no image optimizer needed */}
        {page.logoUrl ? <img src={page.logoUrl} alt="" className="mb-4 h-8 w-auto" /> : null}
        <h1 className="text-lg font-semibold t-heading">{page.title}</h1>
        <p className="mt-1 text-sm t-muted">{tr.t("gate.intro")}</p>
        <label htmlFor="password" className="mt-5 block text-sm font-medium t-text">
          {tr.t("gate.password")}
        </label>
        <input id="password" name="password" type="password" required autoComplete="current-password" className={`mt-1 w-full ${INPUT}`} />
        {noteKey ? (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {tr.t(noteKey)}
          </p>
        ) : null}
        <button type="submit" className="mt-4 w-full rounded-md bg-ink px-4 py-2 font-medium t-on-ink hover:opacity-90">
          {tr.t("gate.submit")}
        </button>
      </form>
    </div>
  );
}
