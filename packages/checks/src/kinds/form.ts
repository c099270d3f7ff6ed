import type { z } from "zod";
import type { AnyCheckKind } from "./kind";

/** One `request` field as a generic form shows it. */
export interface RequestField {
  name: string;
  type: "text" | "number" | "choice" | "boolean" | "map" | "list";
  /** The choices of an enum field. */
  options?: readonly string[];
  required: boolean;
  /** The default the schema fills in, as text. */
  placeholder?: string;
  /** A secret (a connection string): never shown back, stored encrypted. */
  secret?: true;
}

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  entries?: Record<string, string>;
  defaultValue?: unknown;
};
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Follows optional/default/pipe wrappers to the field's own type. */
function describe(schema: z.ZodType): Omit<RequestField, "name"> {
  let s = schema;
  let required = true;
  let placeholder: string | undefined;
  for (let i = 0; i < 10; i++) {
    const def = defOf(s);
    if (def.type === "optional") required = false;
    if (def.type === "default") {
      required = false;
      placeholder = String(typeof def.defaultValue === "function" ? (def.defaultValue as () => unknown)() : def.defaultValue);
    }
    if ((def.type === "optional" || def.type === "default" || def.type === "nullable") && def.innerType) s = def.innerType;
    else if (def.type === "pipe" && def.in && def.out) s = defOf(def.out).type === "transform" ? def.in : def.out;
    else break;
  }
  const def = defOf(s);
  if (def.type === "number") return { type: "number", required, ...(placeholder && { placeholder }) };
  if (def.type === "boolean") return { type: "boolean", required, ...(placeholder && { placeholder }) };
  if (def.type === "record") return { type: "map", required };
  if (def.type === "array") return { type: "list", required };
  if (def.type === "enum")
    return { type: "choice", options: Object.values(def.entries ?? {}), required, ...(placeholder && { placeholder }) };
  return { type: "text", required, ...(placeholder && { placeholder }) };
}

/**
 * The fields of a kind's `request`, in the order a person writes them, for forms that have no page of
 * their own for the kind: the registry is the form.
 */
export function requestFields(kind: AnyCheckKind): RequestField[] {
  let request = kind.input.request as z.ZodType;
  // A refined object (cross-field rules) keeps its shape inside.
  while (!(request as unknown as { shape?: unknown }).shape && defOf(request).in) request = defOf(request).in!;
  const shape = (request as unknown as { shape: Record<string, z.ZodType> }).shape;
  return kind.requestOrder
    .filter((name) => shape[name])
    .map((name) => ({ name, ...describe(shape[name]!), ...(kind.secretFields?.includes(name) && { secret: true as const }) }));
}

/** Whether the kind's monitors carry assertions. */
export const hasAssertions = (kind: AnyCheckKind): boolean => "assertions" in kind.input;
