// Field rules the status-page schemas share (not part of the package's face).
import { z } from "zod";

export const oneOf = (values: readonly string[]) => `must be one of ${values.join(", ")}`;
export const httpUrl = z
  .string()
  .trim()
  .max(2000, "must be at most 2000 characters")
  .regex(/^https?:\/\/[^\s/]+\S*$/, "must be an http:// or https:// URL")
  .pipe(z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }));

export const title = z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters");
export const id = z.number().int().positive();
export const ms = z.number().int("must be a time in ms since epoch").min(0, "must be a time in ms since epoch");
