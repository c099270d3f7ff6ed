"use client";
import { useId, useState } from "react";
import { cx } from "../../ui/ui";
import { renderMarkdown } from "./markdown";

/** A Markdown textarea with a preview rendered the way the public page renders it (no raw HTML, no unsafe links). */
export function MarkdownField({
  name,
  label,
  error,
  defaultValue,
}: {
  name: string;
  label: string;
  error?: string;
  defaultValue?: string;
}) {
  const [value, setValue] = useState(defaultValue ?? "");
  const [preview, setPreview] = useState(false);
  const id = useId();
  const html = preview ? renderMarkdown(value) : "";
  const tab = (on: boolean) =>
    cx("rounded px-2.5 py-1 text-xs font-medium", on ? "bg-white text-zinc-900 shadow-xs" : "text-zinc-600 hover:text-zinc-900");
  return (
    <div className="grid gap-1.5">
      <div className="flex items-center justify-between">
        <label htmlFor={id} className="text-sm font-medium text-zinc-800">
          {label}
        </label>
        <div className="flex gap-1 rounded-md bg-zinc-100 p-0.5">
          <button type="button" aria-pressed={!preview} onClick={() => setPreview(false)} className={tab(!preview)}>
            Write
          </button>
          <button type="button" aria-pressed={preview} onClick={() => setPreview(true)} className={tab(preview)}>
            Preview
          </button>
        </div>
      </div>
      <textarea
        id={id}
        name={name}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        rows={5}
        hidden={preview}
        aria-invalid={!!error || undefined}
        placeholder="What is happening, what you are doing, when you expect the next update. Markdown works."
        className={cx(
          "w-full rounded-md border bg-white px-3 py-2 font-mono text-sm shadow-xs",
          error ? "border-red-500" : "border-zinc-300",
        )}
      />
      {preview ? (
        <div
          data-testid="markdown-preview"
          className="markdown min-h-28 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: micromark output, raw HTML escaped and unsafe link protocols dropped
          dangerouslySetInnerHTML={{ __html: html || "<p>Nothing to preview.</p>" }}
        />
      ) : null}
      {error ? (
        <p className="text-sm text-red-600" role="alert">
          {label} {error}
        </p>
      ) : (
        <p className="text-xs text-zinc-500">**bold**, _italic_, [links](https://…), lists. Raw HTML is shown as text.</p>
      )}
    </div>
  );
}
