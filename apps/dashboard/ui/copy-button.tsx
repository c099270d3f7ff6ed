"use client";
import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { buttonClass } from "./ui";

export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={buttonClass("secondary", "h-8 px-2.5 text-xs")}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          // Without clipboard access (plain http on another host) select the text instead.
          const sel = window.getSelection();
          const el = document.querySelector(`[data-copy="${CSS.escape(value.slice(0, 40))}"]`);
          if (sel && el) sel.selectAllChildren(el);
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? <Check className="size-3.5" aria-hidden /> : <Copy className="size-3.5" aria-hidden />}
      {copied ? "Copied" : label}
    </button>
  );
}

/** A block of text to paste somewhere, with its own copy button. */
export function Snippet({ title, value }: { title: string; value: string }) {
  return (
    <div className="overflow-hidden rounded-lg border border-zinc-200">
      <div className="flex items-center justify-between border-b border-zinc-200 bg-zinc-50 px-3 py-1.5">
        <span className="text-xs font-medium text-zinc-600">{title}</span>
        <CopyButton value={value} />
      </div>
      <pre data-copy={value.slice(0, 40)} className="overflow-x-auto bg-zinc-950 p-3 font-mono text-xs leading-relaxed text-zinc-100">
        {value}
      </pre>
    </div>
  );
}
