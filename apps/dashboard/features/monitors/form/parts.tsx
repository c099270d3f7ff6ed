"use client";
import type { ComponentProps, ReactNode } from "react";
import { Card, CardHeader, cx } from "../../../ui/ui";
import type { Draft } from "./draft";

const textarea = "w-full rounded-md border bg-white px-3 py-2 font-mono text-sm shadow-xs placeholder:text-zinc-400";

/** A three-row monospace text field (a body, JSON); red when its rule is broken. */
export function CodeArea({ invalid, ...props }: Omit<ComponentProps<"textarea">, "className" | "rows"> & { invalid?: boolean }) {
  return <textarea rows={3} {...props} className={cx(textarea, invalid ? "border-red-500" : "border-zinc-300")} />;
}

export function RowError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="text-xs text-red-600" role="alert">
      {error}
    </p>
  );
}

export type TextKey =
  | "period"
  | "cron"
  | "timezone"
  | "grace"
  | "name"
  | "key"
  | "description"
  | "tags"
  | "url"
  | "host"
  | "port"
  | "timeout"
  | "degradedAfter"
  | "retry"
  | "failureThreshold"
  | "successThreshold"
  | "remindEvery"
  | "otelEndpoint";
export interface TextOpts {
  hint?: string;
  placeholder?: string;
  mono?: boolean;
  type?: string;
  inputMode?: "numeric";
}

/** What every section of the monitor form works with: the draft, its setter, the field rules, a text input. */
export interface FormKit {
  d: Draft;
  set: (patch: Partial<Draft>) => void;
  /** The rule a field broke, unless it was edited since. */
  f: (name: string) => string | undefined;
  text: (name: TextKey, label: string, o?: TextOpts) => ReactNode;
  workspaceId: number;
  monitorId?: number;
}

export function Section({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader title={title} description={description} />
      <div className="grid gap-4 px-5 py-4">{children}</div>
    </Card>
  );
}
