import { redactUrl } from "@vigil/api-contract";
import { allowedAddresses, EgressPolicy, EgressRefusedError, egressDispatcher } from "@vigil/egress";
import { request } from "undici";
import type { OutgoingHttp, OutgoingMail, OutgoingRequest } from "./channel";

export type SendResult = { ok: true; status: number } | { ok: false; retryable: boolean; status?: number; error: string };

export interface SendOptions {
  timeoutMs?: number;
  /**
   * How long an HTTP request may stay open past `timeoutMs` for a late answer (default 0: none). A late 2xx
   * is a delivery like any other, so a slow receiver is not sent the event again while it is still answering.
   */
  lateMs?: number;
  /** Called once when `timeoutMs` passes without an answer while the request waits for a late one. */
  onSlow?: () => void;
  /** What a channel may not reach (the instance's own database, Redis, analytics). Unset: nothing refused. */
  egress?: EgressPolicy;
}

/** Provider error bodies can be whole HTML pages; a delivery log needs the start of it. */
const EXCERPT_CHARS = 500;

async function excerpt(body: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of body) {
    text += decoder.decode(chunk, { stream: true });
    if (text.length > EXCERPT_CHARS) break; // leaving the loop destroys the rest of the stream
  }
  text = text.trim();
  return text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS - 1) + "…" : text;
}

/** 408/429 and 5xx say "later"; any other 4xx says the request itself is wrong and will stay wrong. */
const retryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/** A refused destination stays refused: the channel's config must change, so it is never retried. */
const refused = (err: EgressRefusedError): SendResult => ({ ok: false, retryable: false, error: err.message });

async function sendHttp(req: OutgoingHttp, timeoutMs: number, egress: EgressPolicy, late: Late): Promise<SendResult> {
  const limitMs = timeoutMs + late.lateMs;
  // A timer cleared on the answer, not AbortSignal.timeout: a thousand alerts would leave a thousand live timers.
  const abort = new AbortController();
  const { signal } = abort;
  const limit = setTimeout(() => abort.abort(new DOMException(`no response within ${limitMs} ms`, "TimeoutError")), limitMs);
  const slow = late.lateMs > 0 && late.onSlow ? setTimeout(late.onSlow, timeoutMs) : undefined;
  try {
    const dispatcher = egressDispatcher(egress);
    const res = await request(req.url, { method: req.method, headers: req.headers, body: req.body, signal, dispatcher });
    if (res.statusCode >= 200 && res.statusCode < 300) {
      await res.body.dump();
      return { ok: true, status: res.statusCode };
    }
    const text = await excerpt(res.body);
    return {
      ok: false,
      retryable: retryableStatus(res.statusCode),
      status: res.statusCode,
      error: `HTTP ${res.statusCode}${text ? `: ${text}` : ""}`,
    };
  } catch (err) {
    // Never echo the URL: for webhook-style channels it is the credential (the refusal names host:port only).
    if (err instanceof EgressRefusedError) return refused(err);
    if (signal.aborted) return { ok: false, retryable: true, error: `no response within ${limitMs} ms` };
    const { code, message } = err as NodeJS.ErrnoException;
    // The client refusing the request itself (e.g. a header value it cannot encode) will refuse it again.
    if (code === "UND_ERR_INVALID_ARG") return { ok: false, retryable: false, error: `request refused by the HTTP client: ${message}` };
    return { ok: false, retryable: true, error: `network error: ${code ?? ""} ${message}`.replace(/\s+/g, " ").trim() };
  } finally {
    clearTimeout(limit);
    clearTimeout(slow);
  }
}

type Late = Required<Pick<SendOptions, "lateMs">> & Pick<SendOptions, "onSlow">;

async function sendSmtp(req: OutgoingMail, timeoutMs: number, egress: EgressPolicy): Promise<SendResult> {
  // nodemailer resolves the host itself; checking first still keeps a relay URL aimed at Redis or the database out.
  const url = new URL(req.smtpUrl);
  const port = Number(url.port) || (url.protocol === "smtps:" ? 465 : 587);
  try {
    await allowedAddresses(egress, url.hostname, port, AbortSignal.timeout(timeoutMs));
  } catch (err) {
    if (err instanceof EgressRefusedError) return refused(err);
    // A lookup failure is nodemailer's to report, in its own words.
  }
  // Loaded on the first mail: an instance that sends none never holds the SMTP client.
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport(req.smtpUrl, {
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    const info = await transport.sendMail({ ...req.mail, date: new Date(req.mail.date) });
    return { ok: true, status: Number.parseInt(String(info.response), 10) || 250 };
  } catch (err) {
    const { responseCode, message } = err as { responseCode?: number; message: string };
    // SMTP inverts HTTP: 4xx replies are transient, 5xx permanent. No reply at all is a network failure.
    const retryable = responseCode === undefined || (responseCode >= 400 && responseCode < 500);
    return {
      ok: false,
      retryable,
      ...(responseCode !== undefined && { status: responseCode }),
      error: `SMTP ${responseCode ?? "error"}: ${message}`.slice(0, EXCERPT_CHARS),
    };
  } finally {
    transport.close();
  }
}

/**
 * Sends one request; never throws for the provider's failure, classifies it as retryable or permanent.
 * The error (kept in the delivery log) shows no URL credential, even one a provider's reply echoes.
 */
export async function send(
  req: OutgoingRequest,
  { timeoutMs = 10_000, egress = EgressPolicy.none, lateMs = 0, onSlow }: SendOptions = {},
): Promise<SendResult> {
  const res = await (req.transport === "smtp" ? sendSmtp(req, timeoutMs, egress) : sendHttp(req, timeoutMs, egress, { lateMs, onSlow }));
  return res.ok ? res : { ...res, error: redactUrl(res.error) };
}

/** Sends requests in order and stops at the first failure, which is then the outcome. */
export async function deliver(requests: readonly OutgoingRequest[], options: SendOptions = {}): Promise<SendResult> {
  let last: SendResult = { ok: false, retryable: false, error: "nothing to send" };
  for (const req of requests) {
    last = await send(req, options);
    if (!last.ok) return last;
  }
  return last;
}
