"use client";
import { CheckCircle2, FileUp, Play } from "lucide-react";
import Link from "next/link";
import { type FormEvent, startTransition, useActionState, useEffect, useState } from "react";
import { Button, Card, CardHeader, cx, Notice } from "../../ui/ui";
import { type ImportState, importAction } from "./actions";

const sign = { create: "+", update: "~", delete: "-" } as const;
const color = { create: "text-emerald-400", update: "text-amber-300", delete: "text-red-400" } as const;

/** Upload → the plan `vigil apply --dry-run` prints → confirm → apply. The file stays in the form between steps. */
export function MonitorImport({ workspaceId }: { workspaceId: number }) {
  const [state, run, pending] = useActionState<ImportState, FormData>(importAction, {});
  // With JavaScript the file is read into the text box, so it survives the form reset between plan and apply.
  const [hydrated, setHydrated] = useState(false);
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState("monitors.yaml");
  const [open, setOpen] = useState(false);
  useEffect(() => setHydrated(true), []);
  const plan = state.plan;
  const changes = plan ? plan.create.length + plan.update.length + (plan.prune ? plan.delete.length : 0) : 0;
  // With JavaScript the action runs from here, so React does not reset the form (prune, text) between plan and apply.
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const fd = new FormData(e.currentTarget, (e.nativeEvent as SubmitEvent).submitter);
    startTransition(() => run(fd));
  };
  return (
    <form action={run} onSubmit={submit} className="grid gap-5" noValidate>
      <input type="hidden" name="workspaceId" value={workspaceId} />
      {plan && !state.applied ? <input type="hidden" name="fingerprint" value={plan.fingerprint} /> : null}
      <Card>
        <CardHeader
          title="Monitors file"
          description={
            <>
              The same YAML <code className="font-mono text-[0.8125rem]">vigil apply</code> reads: entry key → monitor fields. Monitors are
              matched by entry key.
            </>
          }
        />
        <div className="grid gap-4 px-5 py-4">
          <label
            htmlFor="file"
            className="flex cursor-pointer flex-col items-center gap-2 rounded-lg border border-dashed border-zinc-300 bg-zinc-50 px-4 py-6 text-center text-sm text-zinc-600 has-focus-visible:ring-2 has-focus-visible:ring-zinc-400"
          >
            <FileUp className="size-6 text-zinc-400" aria-hidden />
            <span>
              <span className="font-medium text-zinc-900">Choose a .yaml file</span> (at most 1 MB)
            </span>
            <input
              id="file"
              name={hydrated ? undefined : "file"}
              type="file"
              accept=".yaml,.yml,application/yaml,text/yaml"
              className="text-xs"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                setFileName(file.name);
                setText(await file.text());
                setOpen(true);
              }}
            />
          </label>
          <input type="hidden" name="fileName" value={fileName} />
          <details className="text-sm" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
            <summary className="cursor-pointer text-zinc-600">{text ? `${fileName} — view or edit` : "…or paste the YAML"}</summary>
            <textarea
              name="yaml"
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-label="Monitors YAML"
              rows={10}
              spellCheck={false}
              className="mt-2 w-full rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-xs shadow-xs"
              placeholder={"api-health:\n  kind: http\n  frequency: 1m\n  regions: [iad]\n  request: { url: https://example.com/health }"}
            />
          </details>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="prune" className="mt-0.5" />
            <span>
              Delete monitors that are not in the file{" "}
              <span className="text-zinc-500">
                (like <code>--prune</code>; otherwise they are kept)
              </span>
            </span>
          </label>
          <div className="flex flex-wrap gap-2">
            <Button variant={plan && !state.applied ? "secondary" : "primary"} name="intent" value="plan" disabled={pending}>
              {pending ? "Working…" : "Review plan"}
            </Button>
          </div>
        </div>
      </Card>

      {state.error ? <Notice tone="red">{state.error}</Notice> : null}

      {state.errors && state.errors.length > 0 ? (
        <Card className="border-red-300">
          <CardHeader
            title={`${state.errors.length} problem${state.errors.length === 1 ? "" : "s"} in the file`}
            description="Nothing was changed. Fix these and review the plan again."
          />
          <ul className="grid gap-1 px-5 py-4 font-mono text-sm" data-testid="yaml-errors">
            {state.errors.map((e) => (
              <li key={`${e.line}:${e.column}:${e.path}:${e.rule}`} className="text-red-800">
                <span className="text-zinc-500">
                  {e.line}:{e.column}
                </span>{" "}
                {e.path ? <span className="font-semibold">{e.path}</span> : null} {e.rule}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      {plan ? (
        <Card className={state.applied ? "border-emerald-300" : undefined}>
          <CardHeader
            title={state.applied ? "Applied" : `Plan for ${plan.file}`}
            description={
              state.applied
                ? `${plan.create.length} created, ${plan.update.length} updated, ${plan.prune ? plan.delete.length : 0} deleted, ${plan.unchanged.length} unchanged.`
                : `${plan.create.length} to create, ${plan.update.length} to update, ${plan.prune ? plan.delete.length : 0} to delete, ${plan.unchanged.length} unchanged.`
            }
          />
          <div className="grid gap-3 px-5 py-4">
            <pre className="overflow-x-auto rounded-lg bg-zinc-950 px-4 py-3 font-mono text-sm leading-6 text-zinc-100" data-testid="plan">
              {changes === 0 ? <span className="text-zinc-400">No changes.</span> : null}
              {(["create", "update", "delete"] as const).map((k) =>
                k === "delete" && !plan.prune
                  ? null
                  : plan[k].map((key) => (
                      <span key={`${k}-${key}`} className={cx("block", color[k])}>
                        {sign[k]} {key}
                      </span>
                    )),
              )}
            </pre>
            {!plan.prune && plan.delete.length > 0 ? (
              <p className="text-sm text-zinc-600">
                {plan.delete.length} monitor{plan.delete.length === 1 ? " is" : "s are"} not in the file and kept: {plan.delete.join(", ")}.
              </p>
            ) : null}
            {state.applied ? (
              <p className="flex items-center gap-2 text-sm text-emerald-700">
                <CheckCircle2 className="size-4" aria-hidden /> Done.{" "}
                <Link className="underline" href={`/w/${workspaceId}/monitors`}>
                  See the monitors
                </Link>
              </p>
            ) : changes > 0 ? (
              <div className="flex flex-wrap items-center gap-3">
                <Button
                  name="intent"
                  value="apply"
                  disabled={pending}
                  variant={plan.prune && plan.delete.length > 0 ? "danger" : "primary"}
                >
                  <Play className="size-4" aria-hidden /> Apply {changes} change{changes === 1 ? "" : "s"}
                </Button>
                <span className="text-xs text-zinc-500">Applies the same file again; refused if the plan changed meanwhile.</span>
              </div>
            ) : null}
          </div>
        </Card>
      ) : null}
    </form>
  );
}
