import { type Db, instance } from "@vigil/db-schema";

/**
 * The default queue prefix: named after this install's database (its random id), so two installs
 * sharing one Redis never share queues or wake each other's probes unless told to.
 */
export async function defaultQueuePrefix(db: Db): Promise<string> {
  const [row] = await db.select({ id: instance.id }).from(instance).limit(1);
  if (!row) throw new Error("the database has no install id: run the migrations (pnpm db:migrate)");
  return `vigil-${row.id}`;
}

/** The queue prefix to use: the configured one, else the install's, waiting for the database if it is not up yet. */
export async function resolveQueuePrefix(db: Db, configured: string | undefined, onWait: (err: Error) => void = () => {}): Promise<string> {
  if (configured) return configured;
  for (;;) {
    try {
      return await defaultQueuePrefix(db);
    } catch (err) {
      onWait(err as Error);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
