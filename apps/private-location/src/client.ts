import {
  type CheckResult,
  IngestOutput,
  type IngestResult,
  PROBE_INSTANCE_HEADER,
  ProbeMonitorList,
  ProbeWaitOutput,
} from "@vigil/api-contract";

/** The server answered 401: the SERVICE_KEY is unknown or the location was deleted. */
export class UnknownKeyError extends Error {
  constructor(readonly url: string) {
    super(`SERVICE_KEY is not known to the server at ${url}: use the key shown when the private location was created`);
    this.name = "UnknownKeyError";
  }
}

/** Any other answer than the expected one. */
export class ServerError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`server answered ${status}${body ? `: ${body.slice(0, 300)}` : ""}`);
    this.name = "ServerError";
  }
}

const REQUEST_TIMEOUT_MS = 30_000;

/** The probe's own load, told to the server at each poll. */
export interface ProbeLoad {
  /** Checks not run in time since the last report. */
  skipped: number;
  overloaded: boolean;
}

/** The probe's side of the server's /v1/probe API. */
export class ServerClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly key: string,
    /** Named on every request: the server counts the live probes of a pool by it. */
    private readonly instance?: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
  }

  /** The monitors of this location; `unchanged` when the server's ETag still equals `etag`. */
  async monitors(
    etag: string | null,
    signal?: AbortSignal,
  ): Promise<{ unchanged: true } | { unchanged: false; etag: string; list: ProbeMonitorList }> {
    const res = await this.request("GET", "/v1/probe/monitors", { signal, headers: etag ? { "if-none-match": etag } : {} });
    if (res.status === 304) {
      await res.body?.cancel();
      return { unchanged: true };
    }
    const list = ProbeMonitorList.parse(await res.json());
    return { unchanged: false, etag: res.headers.get("etag") ?? "", list };
  }

  /** Long-poll: returns when the monitors or the pool change, a run is requested, or after `timeoutMs`. */
  async wait(etag: string, timeoutMs: number, signal?: AbortSignal, load?: ProbeLoad, poolVersion?: number): Promise<ProbeWaitOutput> {
    const q = new URLSearchParams({ etag, timeout: String(timeoutMs) });
    if (poolVersion !== undefined) q.set("pool", String(poolVersion));
    if (load) {
      q.set("skipped", String(load.skipped));
      q.set("overloaded", load.overloaded ? "1" : "0");
    }
    const res = await this.request("GET", `/v1/probe/wait?${q}`, { signal, timeoutMs: timeoutMs + REQUEST_TIMEOUT_MS });
    return ProbeWaitOutput.parse(await res.json());
  }

  /** Sends a batch; a 400 comes back as ServerError(400) with the server's reasons. */
  async postResults(results: IngestResult[], signal?: AbortSignal): Promise<IngestOutput> {
    const res = await this.request("POST", "/v1/probe/results", { signal, body: { results } });
    return IngestOutput.parse(await res.json());
  }

  async postRun(runId: string, result: CheckResult, signal?: AbortSignal): Promise<void> {
    const res = await this.request("POST", `/v1/probe/runs/${encodeURIComponent(runId)}`, { signal, body: result });
    await res.body?.cancel();
  }

  private async request(
    method: string,
    path: string,
    opts: { signal?: AbortSignal; headers?: Record<string, string>; body?: unknown; timeoutMs?: number },
  ): Promise<Response> {
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.key}`,
        ...(this.instance && { [PROBE_INSTANCE_HEADER]: this.instance }),
        ...(opts.body !== undefined && { "content-type": "application/json" }),
        ...opts.headers,
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
    });
    if (res.status === 401) {
      await res.body?.cancel();
      throw new UnknownKeyError(this.baseUrl);
    }
    if (res.status >= 400) throw new ServerError(res.status, await res.text().catch(() => ""));
    return res;
  }
}
