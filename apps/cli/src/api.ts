import {
  type ApplyInput,
  ApplyOutput,
  ErrorBody,
  type MonitorBatchInput,
  MonitorBatchOutput,
  MonitorList,
  RunOutput,
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
  ) {
    super(message, exitCode);
  }
}

const MonitorListBody = MonitorList.transform((b) => b.monitors);

export type ApiOptions = { apiUrl: string; token: string; timeoutMs?: number; userAgent?: string };

export function createApi({ apiUrl, token, timeoutMs = 60_000, userAgent = "vigil-cli" }: ApiOptions) {
  async function call<S extends z.ZodType>(method: string, path: string, schema: S | null, body?: unknown): Promise<z.output<S>> {
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
    createBatch: (body: z.input<typeof MonitorBatchInput>) => call("POST", "/v1/monitors/batch", MonitorBatchOutput, body),
    apply: (body: z.input<typeof ApplyInput>) => call("POST", "/v1/monitors/apply", ApplyOutput, body),
    listMonitors: () => call("GET", "/v1/monitors", MonitorListBody),
    deleteMonitor: (id: number) => call("DELETE", `/v1/monitors/${id}`, null),
    trigger: (id: number) => call("POST", `/v1/monitors/${id}/trigger`, RunOutput),
    whoami: () => call("GET", "/v1/whoami", WhoAmI),
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
  const body = ErrorBody.safeParse(json);
  if (body.success) {
    const { code, message, issues } = body.data.error;
    const hint = res.status === 401 ? " (check the token: --token, VIGIL_API_TOKEN or `vigil login`)" : "";
    return new ApiError(`${method} ${path} failed (${res.status} ${code}): ${message}${hint}`, exitCode, res.status, issues ?? []);
  }
  const snippet = text.trim().slice(0, 200);
  return new ApiError(`${method} ${path} failed (${res.status} ${res.statusText})${snippet ? `: ${snippet}` : ""}`, exitCode, res.status);
}

function networkMessage(url: string, error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer from ${url} within ${timeoutMs / 1000}s`;
  }
  const cause =
    error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
  return `cannot reach ${url}: ${cause}`;
}
