/**
 * Lets concurrent callers share one many-at-once run: the first call runs at once, and the calls made while a
 * run is under way go together in the next one (up to `maxWeight` of them, counted by `weight`; a single heavier
 * call goes alone). Calls on different keys (database clients) never share a run. `run` answers each argument
 * in order, fulfilled or rejected on its own.
 */
export function coalesced<K extends object, A, R>(
  run: (key: K, args: A[]) => Promise<PromiseSettledResult<R>[]>,
  opts: { maxWeight?: number; weight?: (arg: A) => number } = {},
): (key: K, arg: A) => Promise<R> {
  const { maxWeight = 500, weight = () => 1 } = opts;
  type Waiting = { arg: A; resolve(r: R): void; reject(err: unknown): void };
  const queues = new WeakMap<K, { waiting: Waiting[]; running: boolean }>();
  const drain = async (key: K, queue: { waiting: Waiting[]; running: boolean }) => {
    queue.running = true;
    try {
      const { waiting } = queue;
      while (waiting.length > 0) {
        let n = 1;
        let size = weight(waiting[0]!.arg);
        while (n < waiting.length && size + weight(waiting[n]!.arg) <= maxWeight) size += weight(waiting[n++]!.arg);
        const group = waiting.splice(0, n);
        try {
          const answers = await run(
            key,
            group.map((w) => w.arg),
          );
          for (const [i, w] of group.entries()) {
            const a = answers[i]!;
            if (a.status === "fulfilled") w.resolve(a.value);
            else w.reject(a.reason);
          }
        } catch (err) {
          for (const w of group) w.reject(err);
        }
      }
    } finally {
      queue.running = false;
    }
  };
  return (key, arg) => {
    let queue = queues.get(key);
    if (!queue) {
      queue = { waiting: [], running: false };
      queues.set(key, queue);
    }
    const { waiting } = queue;
    const answer = new Promise<R>((resolve, reject) => {
      waiting.push({ arg, resolve, reject });
    });
    if (!queue.running) void drain(key, queue);
    return answer;
  };
}

/** Every value answered as fulfilled, for a `coalesced` run that succeeds or fails as a whole. */
export const allFulfilled = <R>(values: R[]): PromiseSettledResult<R>[] => values.map((value) => ({ status: "fulfilled", value }));

/** The items in passes (in their order) holding each key at most once: a later item with a key follows the earlier one. */
export function inPasses<T>(items: readonly T[], keyOf: (item: T) => string | number): T[][] {
  const passes: T[][] = [];
  const seen = new Map<string | number, number>();
  for (const item of items) {
    const n = seen.get(keyOf(item)) ?? 0;
    seen.set(keyOf(item), n + 1);
    if (n === passes.length) passes.push([]);
    passes[n]!.push(item);
  }
  return passes;
}
