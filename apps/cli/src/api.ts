import {
  Acknowledgement,
  type ApplyInput,
  ApplyOutput,
  ErrorBody,
  HeartbeatInfo,
  type MonitorBatchInput,
  MonitorBatchOutput,
  MonitorList,
  PageComponentSummaryList,
  RunOutput,
  SlaReport,
  StatusPageSummaryList,
  type StatusReportInput,
  StatusReportSummary,
  StatusReportSummaryList,
  type StatusReportUpdateInput,
  WhoAmI,
} from "@vigil/api-contract";
import type { z } from "zod";
import { CliError } from "./io";

export type Issue = { path: string; message: string };

/** A failed call: 4xx map to exit 1 (the request was wrong), everything else to exit 2. */
export class ApiError extends CliError {
  constructor(
    message: string,
    exitCode: 1 | 2,
    readonly status: number | undefined,
    readonly issues: Issue[] = [],
    /** The server's Retry-After, in seconds, when it gave one. */
    readonly retryAfterS?: number,
  ) {
    super(message, exitCode);
  }
}

const MonitorListBody = MonitorList.transform((b) => b.monitors);

const StatusPagesBody = StatusPageSummaryList.transform((b) => b.statusPages);
const ComponentsBody = PageComponentSummaryList.transform((b) => b.components);
const StatusReportsBody = StatusReportSummaryList.transform((b) => b.statusReports);

export type ApiOptions = { apiUrl: string; token: string; timeoutMs?: number; userAgent?: string; retryDelayMs?: number };

/** A busy server (503) is asked again, as its Retry-After says (capped), this many times. */
const BUSY_RETRIES = 5;
const MAX_RETRY_AFTER_S = 10;

export function createApi({ apiUrl, token, timeoutMs = 60_000, userAgent = "vigil-cli", retryDelayMs }: ApiOptions) {
  async function call<S extends z.ZodType>(method: string, path: string, schema: S | null | "text", body?: unknown): Promise<z.output<S>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(method, path, schema, body);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 503 || attempt >= BUSY_RETRIES) throw error;
        // A 503 did nothing (the server refuses before writing), so asking again is safe.
        const wait = retryDelayMs ?? Math.min(error.retryAfterS ?? 2, MAX_RETRY_AFTER_S) * 1000;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  async function once<S extends z.ZodType>(method: string, path: string, schema: S | null | "text", body?: unknown): Promise<z.output<S>> {
    const url = `${apiUrl}${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json",
          "user-agent": userAgent,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ApiError(networkMessage(url, error, timeoutMs), 2, undefined);
    }
    const text = await res.text().catch(() => "");
    if (!res.ok) throw errorFromResponse(method, path, res, text);
    if (schema === null) return undefined as z.output<S>;
    if (schema === "text") return text as z.output<S>;
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      throw new ApiError(`${method} ${path}: the server answered ${res.status} with a body that is not JSON`, 2, res.status);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
      throw new ApiError(
        `${method} ${path}: the server's answer does not match the API contract${where}: ${issue?.message ?? ""}`,
        2,
        res.status,
      );
    }
    return parsed.data;
  }

  return {
    /** Any call with the client's auth, errors and retries (the `vigil admin` commands). */
    call,
    createBatch: (body: z.input<typeof MonitorBatchInput>) => call("POST", "/v1/monitors/batch", MonitorBatchOutput, body),
    apply: (body: z.input<typeof ApplyInput>) => call("POST", "/v1/monitors/apply", ApplyOutput, body),
    /** Only monitors carrying every tag named (filtered by the server). */
    listMonitors: (tags: readonly string[] = []) =>
      call("GET", `/v1/monitors${tags.length ? `?${tags.map((t) => `tag=${encodeURIComponent(t)}`).join("&")}` : ""}`, MonitorListBody),
    deleteMonitor: (id: number) => call("DELETE", `/v1/monitors/${id}`, null),
    trigger: (id: number) => call("POST", `/v1/monitors/${id}/trigger`, RunOutput),
    heartbeat: (id: number) => call("GET", `/v1/heartbeats/${id}?limit=1`, HeartbeatInfo),
    ack: (target: "monitors" | "incidents", id: number) => call("POST", `/v1/${target}/${id}/ack`, Acknowledgement, { via: "cli" }),
    whoami: () => call("GET", "/v1/whoami", WhoAmI),
    listStatusPages: () => call("GET", "/v1/status-pages", StatusPagesBody),
    listComponents: (pageId: number) => call("GET", `/v1/status-pages/${pageId}/components`, ComponentsBody),
    listStatusReports: (q: { pageId?: number; open?: boolean }) => {
      const query = new URLSearchParams();
      if (q.pageId !== undefined) query.set("pageId", String(q.pageId));
      if (q.open) query.set("open", "true");
      const qs = query.toString();
      return call("GET", `/v1/status-reports${qs ? `?${qs}` : ""}`, StatusReportsBody);
    },
    createStatusReport: (body: z.input<typeof StatusReportInput>) => call("POST", "/v1/status-reports", StatusReportSummary, body),
    /** An SLA report (`what` = monitors or status-pages) as JSON, or as the server's CSV text. */
    slaReport: (what: "monitors" | "status-pages", id: number, query: URLSearchParams) =>
      call("GET", `/v1/sla/${what}/${id}?${query}`, SlaReport),
    slaCsv: (what: "monitors" | "status-pages", id: number, query: URLSearchParams): Promise<string> =>
      call("GET", `/v1/sla/${what}/${id}?${query}&format=csv`, "text") as Promise<string>,
    addStatusReportUpdate: (id: number, body: z.input<typeof StatusReportUpdateInput>) =>
      call("POST", `/v1/status-reports/${id}/updates`, StatusReportSummary, body),
  };
}
export type Api = ReturnType<typeof createApi>;

function errorFromResponse(method: string, path: string, res: Response, text: string): ApiError {
  const exitCode = res.status >= 400 && res.status < 500 ? 1 : 2;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const retryAfter = Number(res.headers.get("retry-after"));
  const retryAfterS = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined;
  const body = ErrorBody.safeParse(json);
  if (body.success) {
    const { code, message, issues } = body.data.error;
    const hint = res.status === 401 ? " (check the token: --token, VIGIL_API_TOKEN or `vigil login`)" : "";
    return new ApiError(
      `${method} ${path} failed (${res.status} ${code}): ${message}${hint}`,
      exitCode,
      res.status,
      issues ?? [],
      retryAfterS,
    );
  }
  const snippet = text.trim().slice(0, 200);
  return new ApiError(
    `${method} ${path} failed (${res.status} ${res.statusText})${snippet ? `: ${snippet}` : ""}`,
    exitCode,
    res.status,
    [],
    retryAfterS,
  );
}

function networkMessage(url: string, error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer from ${url} within ${timeoutMs / 1000}s`;
  }
  const cause =
    error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
  return `cannot reach ${url}: ${cause}`;
}
