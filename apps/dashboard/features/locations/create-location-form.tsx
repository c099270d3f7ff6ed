"use client";
import { Plus } from "lucide-react";
import { useActionState } from "react";
import { CopyButton, Snippet } from "../../ui/copy-button";
import { Modal } from "../../ui/dialog";
import { useShown } from "../../ui/form-state";
import { Field, Input, Notice, PendingSubmit, Select } from "../../ui/ui";
import { createLocationAction } from "./actions";

export function CreateLocationForm({
  workspaceId,
  groups,
  cities,
}: {
  workspaceId: number;
  groups: { area: string; regions: string[] }[];
  cities: Record<string, string>;
}) {
  const [state, action, pending] = useActionState(createLocationAction, {});
  const [open, setOpen] = useShown(state);
  const key = state.secret ?? "";
  const ingest = state.info?.ingestUrl ?? "";
  const slug =
    (state.info?.name ?? "probe")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "probe";
  const dockerRun = [
    `docker run -d --name vigil-probe-${slug} --restart unless-stopped \\`,
    `  -e SERVICE_KEY=${key} \\`,
    `  -e SERVICE_INGEST_URL=${ingest} \\`,
    `  -v vigil-probe-${slug}:/data/probe \\`,
    "  vigil-private-location:latest",
  ].join("\n");
  const compose = [
    "services:",
    "  private-location:",
    "    image: vigil-private-location:latest",
    "    restart: unless-stopped",
    "    environment:",
    `      SERVICE_KEY: ${key}`,
    `      SERVICE_INGEST_URL: ${ingest}`,
    "    volumes:",
    "      - probe-data:/data/probe",
    "volumes:",
    "  probe-data:",
  ].join("\n");
  const envLines = `SERVICE_KEY=${key}\nSERVICE_INGEST_URL=${ingest}`;
  return (
    <>
      <form action={action} className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start" noValidate>
        <input type="hidden" name="workspaceId" value={workspaceId} />
        <Field label="Name" name="name" error={state.fields?.name} hint="Where it runs, e.g. “office-rack-1”.">
          <Input id="name" name="name" placeholder="office-rack-1" invalid={!!state.fields?.name} />
        </Field>
        <Field label="Region" name="region" error={state.fields?.region} hint="Monitors listing this region run on it.">
          <Select id="region" name="region" defaultValue="iad" invalid={!!state.fields?.region}>
            {groups.map((g) => (
              <optgroup key={g.area} label={g.area}>
                {g.regions.map((r) => (
                  <option key={r} value={r}>
                    {cities[r]} ({r})
                  </option>
                ))}
              </optgroup>
            ))}
          </Select>
        </Field>
        <PendingSubmit pending={pending} icon={Plus} busy="Creating…" className="sm:mt-6.5">
          Create location
        </PendingSubmit>
      </form>
      <div className="mt-3">
        {state.error && !state.fields?.name && !state.fields?.region ? <Notice tone="red">{state.error}</Notice> : null}
      </div>
      <Modal
        wide
        open={open}
        onOpenChange={setOpen}
        title={`Private location “${state.info?.name ?? ""}” created`}
        description="Start a probe with this SERVICE_KEY. It is shown only once: copy one of the blocks below now."
      >
        <div className="grid gap-4">
          <div className="flex items-center gap-2 rounded-lg border border-zinc-200 bg-zinc-50 p-2">
            <span className="text-xs font-medium text-zinc-500">SERVICE_KEY</span>
            <code data-testid="secret" className="flex-1 overflow-x-auto font-mono text-sm break-all">
              {key}
            </code>
            <CopyButton value={key} />
          </div>
          <Snippet title="docker run" value={dockerRun} />
          <Snippet title="docker-compose.yaml" value={compose} />
          <Snippet title=".env" value={envLines} />
        </div>
      </Modal>
    </>
  );
}
