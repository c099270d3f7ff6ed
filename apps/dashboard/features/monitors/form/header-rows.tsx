"use client";
import { isSecretHeader } from "@vigil/api-contract";
import { Plus, Trash2 } from "lucide-react";
import { buttonClass, Input } from "../../../ui/ui";
import { emptyHeader, type HeaderRow } from "./draft";
import { RowError } from "./parts";

/** Name / value rows; secret values are write-only (a stored one shows as set, never its value). */
export function HeaderRows({
  prefix,
  label,
  rows,
  onChange,
  allSecret,
  error,
  add,
  moved,
}: {
  /** The destination's origin changed since it was stored: stored secrets are not sent there, so they must be typed again. */
  moved?: { from: string; to: string } | null;
  prefix: string;
  label: string;
  /** The add button's text. */
  add: string;
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  allSecret?: boolean;
  error?: string;
}) {
  const set = (i: number, patch: Partial<HeaderRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1.5 text-sm font-medium text-zinc-800">{label}</legend>
      {rows.length === 0 ? <p className="text-xs text-zinc-500">None.</p> : null}
      {moved && rows.some((h) => h.stored) ? (
        <p className="text-xs text-amber-700" data-testid={`${prefix}-moved`}>
          The URL now goes to {moved.to} (was {moved.from}): stored secrets are only sent to the origin they were entered for. Enter them
          again, or they are refused.
        </p>
      ) : null}
      {rows.map((h, i) => {
        const alwaysSecret = allSecret || (h.name.trim() !== "" && isSecretHeader(h.name.trim()));
        const secret = alwaysSecret || h.secret;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position
          <div key={i} className="grid gap-2 sm:grid-cols-[12rem_1fr_auto_auto] sm:items-center">
            <Input
              name={`${prefix}.${i}.name`}
              aria-label={`${label} ${i + 1} name`}
              placeholder="Name"
              value={h.name}
              onChange={(e) => set(i, { name: e.target.value })}
              className="font-mono"
            />
            <Input
              name={`${prefix}.${i}.value`}
              aria-label={`${label} ${i + 1} value`}
              type={secret ? "password" : "text"}
              autoComplete="off"
              placeholder={h.stored ? (moved ? `enter again for ${moved.to}` : "•••••• set — leave empty to keep") : "Value"}
              value={h.value}
              onChange={(e) => set(i, { value: e.target.value })}
              className="font-mono"
            />
            {h.stored ? <input type="hidden" name={`${prefix}.${i}.stored`} value="1" /> : null}
            {allSecret ? (
              <span className="text-xs text-zinc-500">secret</span>
            ) : (
              <label
                className="flex items-center gap-1.5 text-xs text-zinc-600"
                title={alwaysSecret ? "Always secret by its name" : undefined}
              >
                <input
                  type="checkbox"
                  name={`${prefix}.${i}.secret`}
                  checked={secret}
                  disabled={alwaysSecret}
                  onChange={(e) => set(i, { secret: e.target.checked })}
                />
                Secret
              </label>
            )}
            <button
              type="button"
              className={buttonClass("ghost", "h-8 px-2")}
              aria-label={`Remove ${label.toLowerCase()} ${i + 1}`}
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            >
              <Trash2 className="size-4" aria-hidden />
            </button>
          </div>
        );
      })}
      <RowError id={`${prefix}-error`} error={error} />
      <div>
        <button type="button" className={buttonClass("secondary", "h-8 text-xs")} onClick={() => onChange([...rows, emptyHeader()])}>
          <Plus className="size-3.5" aria-hidden /> {add}
        </button>
      </div>
    </fieldset>
  );
}
