"use client";
import { CircleCheck, Power, PowerOff, Search, Send, TriangleAlert } from "lucide-react";
import Link from "next/link";
import { useActionState, useMemo, useState } from "react";
import type { ActionState } from "../../lib/action-state";
import { Button, Input, Notice } from "../../ui/ui";
import { setChannelEnabledAction, setChannelMonitorsAction, testChannelAction } from "./actions";

const Hidden = ({ fields }: { fields: Record<string, string | number> }) =>
  Object.entries(fields).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />);

export function EnableToggle({ workspaceId, id, enabled }: { workspaceId: number; id: number; enabled: boolean }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(setChannelEnabledAction, {});
  return (
    <form action={action} className="flex items-center gap-2">
      <Hidden fields={{ workspaceId, id, enabled: String(!enabled) }} />
      <Button variant="secondary" disabled={pending}>
        {enabled ? <PowerOff className="size-4" aria-hidden /> : <Power className="size-4" aria-hidden />}
        {pending ? "Saving…" : enabled ? "Disable" : "Enable"}
      </Button>
      {state.error ? (
        <span className="text-sm text-red-600" role="alert">
          {state.error}
        </span>
      ) : null}
    </form>
  );
}

/** Sends a test message now and shows what the provider answered. */
export function SendTest({ workspaceId, id }: { workspaceId: number; id: number }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(testChannelAction, {});
  const status = state.info?.status;
  return (
    <div className="grid gap-3">
      <form action={action}>
        <Hidden fields={{ workspaceId, id }} />
        <Button disabled={pending}>
          <Send className="size-4" aria-hidden />
          {pending ? "Sending…" : "Send test notification"}
        </Button>
      </form>
      <div aria-live="polite" data-testid="test-result">
        {pending ? null : state.ok ? (
          <Notice tone="indigo">
            <span className="flex items-center gap-2">
              <CircleCheck className="size-4 text-emerald-600" aria-hidden />
              <span>
                Delivered — the provider answered <strong>{status}</strong>.
              </span>
            </span>
          </Notice>
        ) : state.error ? (
          <Notice tone="red">
            <span className="flex items-start gap-2">
              <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
              <span>
                Not delivered
                {status ? (
                  <>
                    {" "}
                    — the provider answered <strong>{status}</strong>
                  </>
                ) : null}
                : <span className="font-mono text-xs break-words">{state.error}</span>
              </span>
            </span>
          </Notice>
        ) : null}
      </div>
    </div>
  );
}

/** More rows than a person scans; a filter narrows the rest (and "select all shown" still takes every match). */
const PICKER_ROWS = 200;

/** Which monitors alert through this channel: a checkbox list filtered by name, target or tag. */
export function MonitorPicker({
  workspaceId,
  id,
  monitors,
  attached,
}: {
  workspaceId: number;
  id: number;
  monitors: { id: number; name: string; url: string; tags: string[] }[];
  attached: number[];
}) {
  const [state, action, pending] = useActionState<ActionState, FormData>(setChannelMonitorsAction, {});
  const [q, setQ] = useState("");
  const [picked, setPicked] = useState(() => new Set(attached));
  const shown = useMemo(() => {
    const needle = q.trim().toLowerCase();
    return needle ? monitors.filter((m) => `${m.name} ${m.url} ${m.tags.join(" ")}`.toLowerCase().includes(needle)) : monitors;
  }, [q, monitors]);
  const selectShown = (on: boolean) =>
    setPicked((s) => {
      const n = new Set(s);
      for (const m of shown) {
        if (on) n.add(m.id);
        else n.delete(m.id);
      }
      return n;
    });
  const toggle = (mid: number, on: boolean) =>
    setPicked((s) => {
      const n = new Set(s);
      if (on) n.add(mid);
      else n.delete(mid);
      return n;
    });
  if (monitors.length === 0)
    return (
      <p className="px-5 py-4 text-sm text-zinc-500">
        No monitors in this workspace yet.{" "}
        <Link href={`/w/${workspaceId}/monitors`} className="font-medium text-indigo-700 hover:underline">
          Monitors
        </Link>
      </p>
    );
  return (
    <form action={action} className="grid gap-3 px-5 py-4">
      <Hidden fields={{ workspaceId, id }} />
      {[...picked].map((mid) => (
        <input key={mid} type="hidden" name="monitors" value={mid} />
      ))}
      <div className="relative">
        <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-zinc-400" aria-hidden />
        <Input
          aria-label="Filter monitors"
          placeholder="Filter by name, URL or tag"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          className="pl-8"
        />
      </div>
      <fieldset className="max-h-72 min-w-0 overflow-y-auto rounded-md border border-zinc-200">
        <legend className="sr-only">Monitors that alert through this channel</legend>
        {shown.length === 0 ? <p className="px-3 py-2 text-sm text-zinc-500">No monitor matches “{q}”.</p> : null}
        {shown.slice(0, PICKER_ROWS).map((m) => (
          <label
            key={m.id}
            className="flex cursor-pointer items-center gap-3 border-b border-zinc-100 px-3 py-2 text-sm last:border-0 hover:bg-zinc-50"
          >
            <input type="checkbox" className="size-4" checked={picked.has(m.id)} onChange={(e) => toggle(m.id, e.target.checked)} />
            <span className="min-w-0 font-medium break-words">{m.name}</span>
            <span className="min-w-0 truncate font-mono text-xs text-zinc-500">{m.url}</span>
            {m.tags.length > 0 ? <span className="ml-auto shrink-0 text-xs text-zinc-500">{m.tags.join(" · ")}</span> : null}
          </label>
        ))}
        {shown.length > PICKER_ROWS ? (
          <p className="px-3 py-2 text-xs text-zinc-500">
            {shown.length - PICKER_ROWS} more not listed: narrow the filter, or select all {shown.length} shown.
          </p>
        ) : null}
      </fieldset>
      <div className="flex flex-wrap gap-2 text-sm">
        <button type="button" className="font-medium text-indigo-700 hover:underline" onClick={() => selectShown(true)}>
          Select all {shown.length} {q.trim() ? "matching" : ""}
        </button>
        <span aria-hidden className="text-zinc-300">
          |
        </span>
        <button type="button" className="font-medium text-indigo-700 hover:underline" onClick={() => selectShown(false)}>
          Clear {q.trim() ? "matching" : "all"}
        </button>
      </div>
      <div className="flex items-center gap-3">
        <Button variant="secondary" disabled={pending}>
          {pending ? "Saving…" : `Save (${picked.size} selected)`}
        </Button>
        {state.ok ? (
          <span className="text-sm text-emerald-700" role="status">
            Saved: {state.info?.count} monitor{state.info?.count === "1" ? "" : "s"} attached
          </span>
        ) : null}
        {state.error ? (
          <span className="text-sm text-red-600" role="alert">
            {state.error}
          </span>
        ) : null}
      </div>
    </form>
  );
}
