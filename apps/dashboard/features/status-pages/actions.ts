"use server";
import type { ComponentInput, StatusPageInput, StatusPagePatch } from "@vigil/api-contract";
// The status-page editor's server actions: every write goes through the core functions the REST API uses.
import {
  addStatusReportUpdate,
  createComponent,
  createComponentGroup,
  createMaintenance,
  createStatusPage,
  createStatusReport,
  deleteComponent,
  deleteComponentGroup,
  deleteMaintenance,
  deleteStatusPage,
  deleteStatusReport,
  listComponents,
  promoteIncident,
  removeSubscriber,
  reorderComponents,
  updateComponent,
  updateComponentGroup,
  updateStatusPage,
  updateStatusReport,
  verifyCustomDomain,
} from "@vigil/core";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import type { ActionState } from "../../lib/action-state";
import { getDb } from "../../lib/db";
import { getEgress } from "../../lib/env";
import { withLift } from "../../lib/limit-help";
import type { PostedFor } from "../../lib/posted";
import { actionMember } from "../../lib/session";
import { affectedOf, checked, fieldError, idOf, linksOf, localTime, orNull, statusFailed, text } from "./status-model";

type Member = Extract<Awaited<ReturnType<typeof actionMember>>, { ok: true }>;

/** Runs `write` as the form's member; errors become form state, success revalidates the page's editor. */
async function run(form: FormData, write: (m: Member, actor: string) => Promise<unknown>): Promise<{ state: ActionState; m?: Member }> {
  const m = await actionMember(form, "member");
  if (!m.ok) return { state: { error: m.error, at: Date.now() } };
  try {
    const out = await write(m, `user:${m.user.id}`);
    const state = isState(out) ? out : { ok: true, at: Date.now() };
    revalidatePath(`/w/${m.workspace.id}/status-pages`, "layout");
    return { state, m };
  } catch (err) {
    return { state: await withLift(statusFailed(err), err, m.workspace) };
  }
}

/** Writes return rows; only an explicit form state (a refusal found before writing) is passed on. */
const isState = (v: unknown): v is ActionState => typeof v === "object" && v !== null && "at" in v && ("error" in v || "ok" in v);

const base = (m: Member) => `/w/${m.workspace.id}/status-pages`;

// ── Pages ────────────────────────────────────────────────────────────────────

export async function createStatusPageAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  let id = 0;
  const { state, m } = await run(form, async (m, actor) => {
    id = (
      await createStatusPage(
        getDb(),
        m.workspace.id,
        { slug: text(form, "slug"), title: text(form, "title") } satisfies PostedFor<typeof StatusPageInput>,
        actor,
      )
    ).id;
    return undefined;
  });
  if (!m || !state.ok) return state;
  redirect(`${base(m)}/${id}`);
}

export async function updateStatusPageAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const mode = text(form, "passwordMode");
  const patch: PostedFor<typeof StatusPagePatch> = {
    slug: text(form, "slug"),
    title: text(form, "title"),
    description: text(form, "description"),
    logoUrl: orNull(form, "logoUrl"),
    links: linksOf(form),
    theme: text(form, "theme"),
    language: text(form, "language"),
    customDomain: orNull(form, "customDomain"),
    whiteLabel: checked(form, "whiteLabel"),
    allowIndex: checked(form, "allowIndex"),
    published: checked(form, "published"),
    // One origin per line (or separated by spaces or commas); empty: any site may frame the widget.
    embedOrigins: text(form, "embedOrigins")
      .split(/[\s,]+/)
      .filter((o) => o !== ""),
  };
  if (mode === "set") patch.password = text(form, "password");
  if (mode === "remove") patch.password = null;
  return (await run(form, (m, actor) => updateStatusPage(getDb(), m.workspace.id, idOf(form, "pageId"), patch, actor))).state;
}

export async function deleteStatusPageAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const { state, m } = await run(form, (m, actor) => deleteStatusPage(getDb(), m.workspace.id, idOf(form, "pageId"), actor));
  if (!m || !state.ok) return state;
  redirect(base(m));
}

/** "Verify now": checks the custom domain's proof; the card shows the outcome (verified, or why not). */
export async function verifyDomainAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return (
    await run(form, async (m, actor) =>
      verifyCustomDomain(getDb(), m.workspace.id, idOf(form, "pageId"), actor, { egress: await getEgress() }),
    )
  ).state;
}

// ── Groups and components ────────────────────────────────────────────────────

export async function createGroupAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return (
    await run(form, (m, actor) => createComponentGroup(getDb(), m.workspace.id, idOf(form, "pageId"), { name: text(form, "name") }, actor))
  ).state;
}

export async function renameGroupAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return (
    await run(form, (m, actor) => updateComponentGroup(getDb(), m.workspace.id, idOf(form, "groupId"), { name: text(form, "name") }, actor))
  ).state;
}

export async function deleteGroupAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return (await run(form, (m, actor) => deleteComponentGroup(getDb(), m.workspace.id, idOf(form, "groupId"), actor))).state;
}

/** The fields a component form sends: a monitor-linked one takes its status from checks, a static one is set by hand. */
function componentFields(form: FormData): PostedFor<typeof ComponentInput> {
  const linked = text(form, "source") === "monitor";
  const monitor = text(form, "monitorId");
  return {
    name: text(form, "name"),
    description: text(form, "description"),
    groupId: text(form, "groupId") ? idOf(form, "groupId") : null,
    monitorId: linked ? (/^\d{1,15}$/.test(monitor) ? Number(monitor) : monitor === "" ? 0 : -1) : null,
    ...(linked ? {} : { staticStatus: text(form, "staticStatus") || "operational" }),
  };
}

export async function createComponentAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const fields = componentFields(form);
  return (
    await run(form, async (m, actor) =>
      fields.monitorId === 0
        ? fieldError("monitorId", "is required for a monitor-linked component: choose one")
        : createComponent(getDb(), m.workspace.id, idOf(form, "pageId"), fields, actor),
    )
  ).state;
}

export async function updateComponentAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const fields = componentFields(form);
  return (
    await run(form, async (m, actor) =>
      fields.monitorId === 0
        ? fieldError("monitorId", "is required for a monitor-linked component: choose one")
        : updateComponent(getDb(), m.workspace.id, idOf(form, "componentId"), fields, actor),
    )
  ).state;
}

export async function deleteComponentAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return (await run(form, (m, actor) => deleteComponent(getDb(), m.workspace.id, idOf(form, "componentId"), actor))).state;
}

/** Swaps a component (or group) with its neighbour: components move within their group. */
export async function moveAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const what = text(form, "what") === "groups" ? "groups" : "components";
  const id = idOf(form, "id");
  const step = text(form, "dir") === "up" ? -1 : 1;
  return (
    await run(form, async (m, actor) => {
      const pageId = idOf(form, "pageId");
      const { groups, components } = await listComponents(getDb(), m.workspace.id, pageId);
      const list: { id: number; groupId?: number | null }[] = what === "groups" ? groups : components;
      const at = list.findIndex((x) => x.id === id);
      if (at < 0) return { error: "That item is no longer on this page; reload.", at: Date.now() };
      const peers = list.map((x, i) => [x, i] as const).filter(([x]) => what === "groups" || x.groupId === list[at]!.groupId);
      const mine = peers.findIndex(([x]) => x.id === id);
      const other = peers[mine + step];
      if (!other) return undefined;
      const ids = list.map((x) => x.id);
      [ids[at], ids[other[1]]] = [ids[other[1]]!, ids[at]!];
      await reorderComponents(getDb(), m.workspace.id, pageId, ids, actor, what);
      return undefined;
    })
  ).state;
}

// ── Reports ──────────────────────────────────────────────────────────────────

export async function createReportAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  let id = 0;
  const { state, m } = await run(form, async (m, actor) => {
    id = (
      await createStatusReport(
        getDb(),
        m.workspace.id,
        {
          pageId: idOf(form, "pageId"),
          title: text(form, "title"),
          status: text(form, "status"),
          message: text(form, "message"),
          components: affectedOf(form),
        },
        actor,
      )
    ).id;
    return undefined;
  });
  if (!m || !state.ok) return state;
  redirect(`${base(m)}/${idOf(form, "pageId")}/reports/${id}`);
}

export async function addUpdateAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return (
    await run(form, (m, actor) =>
      addStatusReportUpdate(
        getDb(),
        m.workspace.id,
        idOf(form, "reportId"),
        { status: text(form, "status"), message: text(form, "message") },
        actor,
      ),
    )
  ).state;
}

export async function editReportAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return (
    await run(form, (m, actor) =>
      updateStatusReport(
        getDb(),
        m.workspace.id,
        idOf(form, "reportId"),
        { title: text(form, "title"), components: affectedOf(form) },
        actor,
      ),
    )
  ).state;
}

export async function deleteReportAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const { state, m } = await run(form, (m, actor) => deleteStatusReport(getDb(), m.workspace.id, idOf(form, "reportId"), actor));
  if (!m || !state.ok) return state;
  redirect(`${base(m)}/${idOf(form, "pageId")}/reports`);
}

export async function promoteIncidentAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  let id = 0;
  const { state, m } = await run(form, async (m, actor) => {
    id = (await promoteIncident(getDb(), m.workspace.id, idOf(form, "incidentId"), { pageId: idOf(form, "pageId") }, actor)).id;
    return undefined;
  });
  if (!m || !state.ok) return state;
  redirect(`${base(m)}/${idOf(form, "pageId")}/reports/${id}`);
}

// ── Maintenance and subscribers ──────────────────────────────────────────────

export async function createMaintenanceAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const ids = (name: string) => form.getAll(name).map((v) => (/^\d{1,15}$/.test(String(v)) ? Number(v) : -1));
  // The role is checked (in run) before the form is read.
  return (
    await run(form, async (m, actor) => {
      const startsAt = localTime(form, "startsAt");
      const endsAt = localTime(form, "endsAt");
      if (typeof startsAt !== "number") return fieldError("startsAt", "must be a date and time");
      if (typeof endsAt !== "number") return fieldError("endsAt", "must be a date and time");
      return createMaintenance(
        getDb(),
        m.workspace.id,
        {
          pageId: idOf(form, "pageId"),
          title: text(form, "title"),
          message: text(form, "message"),
          startsAt,
          endsAt,
          components: ids("component"),
          monitors: ids("monitor"),
        },
        actor,
      );
    })
  ).state;
}

export async function deleteMaintenanceAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return (await run(form, (m, actor) => deleteMaintenance(getDb(), m.workspace.id, idOf(form, "maintenanceId"), actor))).state;
}

export async function removeSubscriberAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return (await run(form, (m, actor) => removeSubscriber(getDb(), m.workspace.id, idOf(form, "subscriberId"), actor))).state;
}
