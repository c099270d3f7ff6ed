import { zValidator } from "@hono/zod-validator";
import { toIssues } from "@vigil/api-contract";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { errorBody } from "./errors";

/** zValidator answering with our error body; `what` prefixes the message ("monitor", "results"…). */
export const valid = <T extends keyof ValidationTargets, S extends z.ZodType>(target: T, schema: S, what: string) =>
  zValidator(target, schema, (result, c) => {
    if (!result.success) {
      const issues = toIssues(result.error as unknown as z.ZodError);
      const first = issues[0];
      return c.json(
        errorBody("invalid_input", first ? `${what}: ${first.path || "(body)"} ${first.message}` : `invalid ${what}`, { issues }),
        400,
      );
    }
  });
