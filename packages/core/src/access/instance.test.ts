import { migrate } from "@vigil/db-schema/migrate";
import { startTestDatabase } from "@vigil/db-schema/testing";
import { describe, expect, it } from "vitest";
import { defaultQueuePrefix, resolveQueuePrefix } from "../index";

describe("queue names", () => {
  it("two installs sharing one Redis get different queue prefixes; one install keeps its own across restarts and migrations", async () => {
    const a = await startTestDatabase();
    const b = await startTestDatabase();
    try {
      const first = await defaultQueuePrefix(a.db);
      expect(first).toMatch(/^vigil-[0-9a-f]{16}$/);
      await migrate(a.db);
      expect(await defaultQueuePrefix(a.db)).toBe(first);
      expect(await defaultQueuePrefix(b.db)).not.toBe(first);
      expect(await resolveQueuePrefix(a.db, "shared")).toBe("shared");
    } finally {
      await a.close();
      await b.close();
    }
  });
});
