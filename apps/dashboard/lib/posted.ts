// A form's values for a shared api-contract schema: the schema's keys, each as the form posts it, so a
// renamed or removed field breaks the build here instead of being dropped. The schema still says what is wrong.
import type { z } from "zod";

export type PostedFor<S extends z.ZodType> = { [K in keyof z.input<S>]?: unknown };
