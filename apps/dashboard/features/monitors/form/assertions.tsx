"use client";
import { Plus, Trash2 } from "lucide-react";
import { useEffect, useRef } from "react";
import { buttonClass, cx, Input, Select } from "../../../ui/ui";
import {
  ASSERTION_KINDS,
  type AssertionKind,
  type AssertionRow,
  CERTIFICATE_COMPARATORS,
  CERTIFICATE_PROPERTIES,
  COMPARATOR_LABEL,
  COMPARATORS_OF,
  emptyAssertion,
} from "./draft";
import { RowError } from "./parts";

export function AssertionBuilder({
  rows,
  onChange,
  fields,
}: {
  rows: AssertionRow[];
  onChange: (rows: AssertionRow[]) => void;
  fields: Record<string, string>;
}) {
  const added = useRef<number | null>(null);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Keyboard users land on the row they just added.
    if (added.current === null) return;
    list.current?.querySelector<HTMLSelectElement>(`[name="assertion.${added.current}.kind"]`)?.focus();
    added.current = null;
  });
  const set = (i: number, patch: Partial<AssertionRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div className="grid gap-3" ref={list}>
      {rows.length === 0 ? <p className="text-sm text-zinc-500">No assertions: any 2xx status passes.</p> : null}
      {rows.map((a, i) => {
        const err = (f: string) => fields[`assertion.${i}.${f}`];
        const rowError = err("target") ?? err("compare") ?? err("key") ?? err("path") ?? fields[`assertion.${i}`];
        const ops = a.kind === "certificate" ? CERTIFICATE_COMPARATORS[a.property]! : COMPARATORS_OF[a.kind];
        const noTarget = a.compare === "empty" || a.compare === "not_empty";
        return (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position
            key={i}
            data-testid="assertion-row"
            className={cx("grid gap-2 rounded-lg border bg-zinc-50/60 p-2.5", rowError ? "border-red-300" : "border-zinc-200")}
          >
            <div
              className={cx(
                "grid items-center gap-2",
                a.kind === "certificate"
                  ? "sm:grid-cols-[10rem_10rem_8rem_minmax(0,1fr)_8rem_auto]"
                  : a.kind === "header" || a.kind === "jsonBody"
                    ? "sm:grid-cols-[10rem_10rem_10rem_minmax(0,1fr)_auto]"
                    : "sm:grid-cols-[10rem_10rem_minmax(0,1fr)_auto]",
              )}
            >
              <Select
                name={`assertion.${i}.kind`}
                aria-label={`Assertion ${i + 1} kind`}
                value={a.kind}
                onChange={(e) => {
                  const kind = e.target.value as AssertionKind;
                  set(i, { ...emptyAssertion(kind), compare: COMPARATORS_OF[kind].includes(a.compare) ? a.compare : "eq" });
                }}
              >
                {ASSERTION_KINDS.map((k) => (
                  <option key={k.kind} value={k.kind}>
                    {k.label}
                  </option>
                ))}
              </Select>
              {a.kind === "header" ? (
                <Input
                  name={`assertion.${i}.key`}
                  aria-label={`Assertion ${i + 1} header name`}
                  placeholder="content-type"
                  value={a.key}
                  invalid={!!err("key")}
                  onChange={(e) => set(i, { key: e.target.value })}
                  className="font-mono"
                />
              ) : null}
              {a.kind === "certificate" ? (
                <Select
                  name={`assertion.${i}.property`}
                  aria-label={`Assertion ${i + 1} certificate property`}
                  value={a.property}
                  invalid={!!err("property")}
                  onChange={(e) => {
                    const property = e.target.value;
                    set(i, { property, compare: CERTIFICATE_COMPARATORS[property]![0]!, target: property === "valid" ? "true" : "" });
                  }}
                >
                  {CERTIFICATE_PROPERTIES.map(([p, label]) => (
                    <option key={p} value={p}>
                      {label}
                    </option>
                  ))}
                </Select>
              ) : null}
              {a.kind === "jsonBody" ? (
                <Input
                  name={`assertion.${i}.path`}
                  aria-label={`Assertion ${i + 1} JSON path`}
                  placeholder="$.status"
                  value={a.path}
                  invalid={!!err("path")}
                  onChange={(e) => set(i, { path: e.target.value })}
                  className="font-mono"
                />
              ) : null}
              <Select
                name={`assertion.${i}.compare`}
                aria-label={`Assertion ${i + 1} comparator`}
                value={a.compare}
                invalid={!!err("compare")}
                onChange={(e) => set(i, { compare: e.target.value })}
              >
                {ops.map((op) => (
                  <option key={op} value={op}>
                    {COMPARATOR_LABEL[op]}
                  </option>
                ))}
              </Select>
              {noTarget ? (
                <input type="hidden" name={`assertion.${i}.target`} value="" />
              ) : (
                <Input
                  name={`assertion.${i}.target`}
                  aria-label={`Assertion ${i + 1} expected value`}
                  placeholder={
                    a.kind === "statusCode"
                      ? "200"
                      : a.kind === "latency"
                        ? "ms, e.g. 800"
                        : a.kind === "jsonBody"
                          ? 'ok, 42, true, null or "quoted"'
                          : a.kind === "certificate"
                            ? a.property === "expiresIn"
                              ? "days, e.g. 21"
                              : a.property === "valid"
                                ? "true or false"
                                : "text, e.g. Let's Encrypt"
                            : "text"
                  }
                  value={a.target}
                  invalid={!!err("target")}
                  inputMode={a.kind === "statusCode" || a.kind === "latency" ? "numeric" : undefined}
                  onChange={(e) => set(i, { target: e.target.value })}
                  className="font-mono"
                />
              )}
              {a.kind === "certificate" ? (
                <Select
                  name={`assertion.${i}.severity`}
                  aria-label={`Assertion ${i + 1} when it fails`}
                  value={a.severity}
                  onChange={(e) => set(i, { severity: e.target.value })}
                >
                  <option value="error">error</option>
                  <option value="degraded">degraded</option>
                </Select>
              ) : null}
              <button
                type="button"
                className={buttonClass("ghost", "h-8 justify-self-end px-2")}
                aria-label={`Remove assertion ${i + 1}`}
                onClick={() => onChange(rows.filter((_, j) => j !== i))}
              >
                <Trash2 className="size-4" aria-hidden />
              </button>
            </div>
            <RowError id={`assertion-${i}-error`} error={rowError ? `Assertion ${i + 1}: ${rowError}` : undefined} />
          </div>
        );
      })}
      {fields.assertions ? <RowError id="assertions-error" error={`Assertions ${fields.assertions}`} /> : null}
      <div>
        <button
          type="button"
          className={buttonClass("secondary", "h-8 text-xs")}
          onClick={() => {
            added.current = rows.length;
            onChange([...rows, emptyAssertion("statusCode")]);
          }}
        >
          <Plus className="size-3.5" aria-hidden /> Add assertion
        </button>
      </div>
    </div>
  );
}
