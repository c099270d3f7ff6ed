import { toIssues } from "@vigil/api-contract";
import type { z } from "zod";

/** Input that breaks a rule; nothing was written. */
export class ValidationError extends Error {
  readonly code = "invalid_input";
  constructor(
    message: string,
    readonly issues: { path: string; message: string }[],
  ) {
    super(message);
    this.name = "ValidationError";
  }
  static fromZod(error: z.ZodError, what = "input"): ValidationError {
    const issues = toIssues(error);
    const first = issues[0];
    return new ValidationError(first ? `${what}: ${first.path || "(root)"} ${first.message}` : `invalid ${what}`, issues);
  }
}

export class NotFoundError extends Error {
  readonly code = "not_found";
  constructor(
    readonly resource: string,
    readonly id: string | number,
  ) {
    super(`${resource} ${id} not found`);
    this.name = "NotFoundError";
  }
}

export class ConflictError extends Error {
  readonly code = "conflict";
  constructor(message: string) {
    super(message);
    this.name = "ConflictError";
  }
}

/** Parses with zod or throws a ValidationError naming each field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what?: string): z.infer<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw ValidationError.fromZod(r.error, what);
  return r.data;
}
