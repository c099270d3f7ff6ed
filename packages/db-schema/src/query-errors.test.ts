import { Writable } from "node:stream";
import { createLogger } from "@vigil/service";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationChannel, session, user, workspace } from "./index";
import { startTestDatabase, type TestDatabase } from "./testing";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(async () => t?.close());

/** The service logger writing into a string, as it would to stdout. */
function capturedLogger() {
  let out = "";
  const stream = new Writable({
    write(chunk, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  return { logger: createLogger("test", "info", stream), output: () => out };
}

async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected the query to fail");
}

describe("a failed database query", () => {
  it("logs the statement and the database's reason, never a bound value (a session token)", async () => {
    const token = "session-token-3f9a1c-secret";
    const [u] = await t.db.insert(user).values({ id: "u-logs", email: "logs@example.com" }).returning();
    await t.db.insert(session).values({ sessionToken: token, userId: u!.id, expires: new Date(Date.now() + 60_000) });
    const err = await failure(() =>
      t.db.insert(session).values({ sessionToken: token, userId: u!.id, expires: new Date(Date.now() + 60_000) }),
    );
    const { logger, output } = capturedLogger();
    logger.error({ err }, "unhandled error");
    logger.warn({ err: err.message }, "job failed");
    expect(output()).toContain("UNIQUE constraint failed: session.sessionToken");
    expect(output()).toContain('insert into \\"session\\"');
    expect(output()).not.toContain(token);
    // What a job's failedReason or a delivery row would store is the message and the stack.
    expect(`${err.message}\n${err.stack}\n${JSON.stringify(err)}`).not.toContain(token);
  });

  it("keeps a webhook URL out of the error when the database is down", async () => {
    const hook = "https://hooks.slack.com/services/T000/B000/xoxb-very-secret";
    const [ws] = await t.db.insert(workspace).values({ name: "down" }).returning();
    await t.sqld.stop();
    try {
      const err = await failure(() =>
        t.db.insert(notificationChannel).values({ workspaceId: ws!.id, name: "ops", kind: "slack", config: { url: hook } }),
      );
      const { logger, output } = capturedLogger();
      logger.error({ err }, "unhandled error");
      expect(output()).toContain("Failed query: insert into");
      expect(output()).toMatch(/fetch failed|ECONNREFUSED/);
      expect(output()).not.toContain("xoxb-very-secret");
    } finally {
      await t.restart();
    }
  });

  it("inside a transaction too", async () => {
    const secret = "lookup-secret-77";
    const err = await failure(() =>
      t.db.transaction(async (tx) => {
        await tx.select().from(session).where(eq(session.sessionToken, secret));
        await tx.insert(user).values({ id: "u-logs", email: secret });
      }),
    );
    expect(err.message).toContain("UNIQUE constraint failed");
    expect(`${err.message}\n${err.stack}`).not.toContain(secret);
  });
});
