"use client";
// Forms of the status-page editor: creating a page and its settings.
import { PAGE_LANGUAGE_NAMES, PAGE_LANGUAGE_VALUES } from "@vigil/api-contract";
import { Plus, Save } from "lucide-react";
import { useState } from "react";
import { ActionForm, err } from "../../ui/action-form";
import { Button, Field, Input, PendingSubmit, Select } from "../../ui/ui";
import { createStatusPageAction, updateStatusPageAction } from "./actions";
import type { PageFormValues } from "./shared";

export function CreatePageForm({ workspaceId }: { workspaceId: number }) {
  return (
    <ActionForm action={createStatusPageAction} hidden={{ workspaceId }} className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
      {(state, pending) => (
        <>
          <Field label="Title" name="title" error={err(state, "title")} hint="Shown at the top of the page, e.g. “Acme status”.">
            <Input id="title" name="title" placeholder="Acme status" invalid={!!err(state, "title")} />
          </Field>
          <Field label="Slug" name="slug" error={err(state, "slug")} hint="The page's address: /acme. Lowercase letters, digits, dashes.">
            <Input id="slug" name="slug" placeholder="acme" invalid={!!err(state, "slug")} />
          </Field>
          <PendingSubmit pending={pending} icon={Plus} busy="Creating…" className="sm:mt-6.5">
            Create page
          </PendingSubmit>
        </>
      )}
    </ActionForm>
  );
}

function Check({ name, label, hint, defaultChecked }: { name: string; label: string; hint: string; defaultChecked: boolean }) {
  return (
    <label htmlFor={name} className="flex items-start gap-3 rounded-lg border border-zinc-200 p-3">
      <input id={name} name={name} type="checkbox" defaultChecked={defaultChecked} className="mt-0.5 size-4 accent-zinc-900" />
      <span>
        <span className="block text-sm font-medium text-zinc-800">{label}</span>
        <span className="block text-xs text-zinc-500">{hint}</span>
      </span>
    </label>
  );
}

export function PageSettingsForm({
  workspaceId,
  page,
  allowed,
}: {
  workspaceId: number;
  page: PageFormValues;
  allowed: { customDomain: boolean; password: boolean; whiteLabel: boolean };
}) {
  const [mode, setMode] = useState(page.passwordProtected ? "keep" : "none");
  const links = [...page.links, ...Array.from({ length: Math.max(0, 3 - page.links.length) }, () => ({ label: "", url: "" }))];
  const off = (on: boolean, key: string) => (on ? undefined : `Not in this workspace's plan (limit “${key}”).`);
  return (
    <ActionForm
      action={updateStatusPageAction}
      hidden={{ workspaceId, pageId: page.id }}
      saved="Saved. The public page shows it within 30 s."
    >
      {(state, pending) => (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Title" name="title" error={err(state, "title")}>
              <Input id="title" name="title" defaultValue={page.title} invalid={!!err(state, "title")} />
            </Field>
            <Field label="Slug" name="slug" error={err(state, "slug")} hint="Changing it moves the public address.">
              <Input id="slug" name="slug" defaultValue={page.slug} invalid={!!err(state, "slug")} />
            </Field>
          </div>
          <Field label="Description" name="description" error={err(state, "description")}>
            <textarea
              id="description"
              name="description"
              defaultValue={page.description}
              rows={2}
              className="w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm shadow-xs"
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Logo URL" name="logoUrl" error={err(state, "logoUrl")} hint="An https:// image shown next to the title.">
              <Input
                id="logoUrl"
                name="logoUrl"
                defaultValue={page.logoUrl ?? ""}
                placeholder="https://example.com/logo.png"
                invalid={!!err(state, "logoUrl")}
              />
            </Field>
            <Field label="Theme" name="theme" error={err(state, "theme")}>
              <Select id="theme" name="theme" defaultValue={page.theme}>
                <option value="system">Follow the visitor's system</option>
                <option value="light">Light</option>
                <option value="dark">Dark</option>
              </Select>
            </Field>
            <Field
              label="Language"
              name="language"
              error={err(state, "language")}
              hint="Shown to visitors whose browser asks for none of these; ?lang= picks one."
            >
              <Select id="language" name="language" defaultValue={page.language}>
                {PAGE_LANGUAGE_VALUES.map((l) => (
                  <option key={l} value={l}>
                    {PAGE_LANGUAGE_NAMES[l]}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <fieldset className="grid gap-2">
            <legend className="mb-1.5 text-sm font-medium text-zinc-800">Links in the header</legend>
            {links.map((l, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed slots, row i is always the fields link-*-i
              <div key={i} className="grid gap-2 sm:grid-cols-[12rem_1fr]">
                <Input name={`link-label-${i}`} aria-label={`Link ${i + 1} label`} placeholder="Website" defaultValue={l.label} />
                <Input name={`link-url-${i}`} aria-label={`Link ${i + 1} URL`} placeholder="https://example.com" defaultValue={l.url} />
              </div>
            ))}
            {err(state, "links") ? (
              <p className="text-sm text-red-600" role="alert">
                Links {err(state, "links")}
              </p>
            ) : null}
          </fieldset>
          <Field
            label="Custom domain"
            name="customDomain"
            error={err(state, "customDomain")}
            hint={
              off(allowed.customDomain, "custom-domain") ??
              "After saving, prove the domain is yours (below); only then does it show this page."
            }
          >
            <Input
              id="customDomain"
              name="customDomain"
              defaultValue={page.customDomain ?? ""}
              placeholder="status.example.com"
              invalid={!!err(state, "customDomain")}
            />
          </Field>
          <fieldset className="grid gap-2">
            <legend className="mb-1.5 text-sm font-medium text-zinc-800">Password</legend>
            <div className="flex flex-wrap gap-4 text-sm">
              {(page.passwordProtected
                ? [
                    ["keep", "Keep the current password"],
                    ["set", "Change it"],
                    ["remove", "Remove (page becomes public)"],
                  ]
                : [
                    ["none", "No password"],
                    ["set", "Protect with a password"],
                  ]
              ).map(([v, label]) => (
                <label key={v} className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="passwordMode"
                    value={v}
                    checked={mode === v}
                    onChange={() => setMode(v!)}
                    className="accent-zinc-900"
                  />
                  {label}
                </label>
              ))}
            </div>
            {mode === "set" ? (
              <Field
                label="New password"
                name="password"
                error={err(state, "password")}
                hint={off(allowed.password, "password-protection") ?? "At least 8 characters. Visitors enter it once per week."}
              >
                <Input id="password" name="password" type="password" autoComplete="new-password" invalid={!!err(state, "password")} />
              </Field>
            ) : null}
          </fieldset>
          <div className="grid gap-3 sm:grid-cols-3">
            <Check name="published" label="Published" hint="Unpublished pages answer 404 to visitors." defaultChecked={page.published} />
            <Check
              name="allowIndex"
              label="Search engines may index it"
              hint="Off: the page says noindex."
              defaultChecked={page.allowIndex}
            />
            <Check
              name="whiteLabel"
              label="Hide “Powered by Vigil”"
              hint={off(allowed.whiteLabel, "white-label") ?? "Your page, your brand."}
              defaultChecked={page.whiteLabel}
            />
          </div>
          <Field
            label="Sites that may embed the widget"
            name="embedOrigins"
            error={err(state, "embedOrigins") ?? Object.entries(state.fields ?? {}).find(([k]) => k.startsWith("embedOrigins."))?.[1]}
            hint="One origin per line, such as https://intranet.example.com. Empty: any site may frame the embed view; no site may frame the page itself."
          >
            <textarea
              id="embedOrigins"
              name="embedOrigins"
              defaultValue={page.embedOrigins.join("\n")}
              rows={2}
              placeholder="https://intranet.example.com"
              className="w-full rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-sm shadow-xs"
            />
          </Field>
          <div>
            <Button disabled={pending}>
              <Save className="size-4" aria-hidden />
              {pending ? "Saving…" : "Save settings"}
            </Button>
          </div>
        </>
      )}
    </ActionForm>
  );
}
