/**
 * At most `n` calls of `run` at once, the others waiting in order: what a receiver sees of a burst is bounded
 * by this, not by how many deliveries wait on the database meanwhile.
 */
export function slots(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(run: () => Promise<T>): Promise<T> => {
    if (active < n) active++;
    // A slot is handed over by the call that ends, without counting it free in between.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await run();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
