import type { EgressPolicy } from "@vigil/egress";

/** What one attempt may spend and reach: its own timeout, the caller's signal, the egress policy. */
export interface AttemptOptions {
  signal?: AbortSignal;
  /**
   * Endpoints a kind that sends bytes must refuse (checked on resolved addresses at every connect);
   * connect-only kinds ignore it. Unset: nothing refused.
   */
  egress?: EgressPolicy;
  /** Overrides the check's timeoutMs, e.g. when the deadline leaves less room. */
  timeoutMs?: number;
}

/**
 * One attempt's clock. Its signal aborts when the timeout passes or the caller aborts, and it remembers
 * which of the two happened so the error message can say so.
 */
export class AttemptBudget {
  readonly signal: AbortSignal;
  readonly startedAt = performance.now();
  #controller = new AbortController();
  #timer: NodeJS.Timeout;
  #parent: AbortSignal | undefined;
  #timedOut = false;
  #onParentAbort = () => this.#controller.abort(this.#parent?.reason);

  constructor(
    readonly timeoutMs: number,
    parent?: AbortSignal,
  ) {
    this.signal = this.#controller.signal;
    this.#parent = parent;
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    if (parent?.aborted) this.#onParentAbort();
    else parent?.addEventListener("abort", this.#onParentAbort, { once: true });
  }

  get timedOut(): boolean {
    return this.#timedOut;
  }

  /** The caller aborted (not our timeout). */
  get cancelled(): boolean {
    return this.signal.aborted && !this.#timedOut;
  }

  elapsed(): number {
    return performance.now() - this.startedAt;
  }

  /** The message for a failure caused by this budget, or undefined when the budget did not cause it. */
  stopMessage(what: string): string | undefined {
    if (this.#timedOut) return `${what} timed out after ${this.timeoutMs} ms`;
    if (this.signal.aborted) return "aborted";
    return undefined;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#parent?.removeEventListener("abort", this.#onParentAbort);
  }
}
