import { z } from "zod";
import type { CheckResult } from "../schema";

/** What every check carries besides its kind's own fields, durations in milliseconds. */
export const checkBase = {
  timeoutMs: z.number().int().positive().default(45_000),
  degradedAfterMs: z.number().int().positive().optional(),
  retry: z.number().int().min(0).default(3),
};

type Shape = Record<string, z.ZodType>;
type Out<S extends Shape> = z.output<z.ZodObject<S>>;

/**
 * A check kind: everything that differs between kinds, in one place. The monitor schemas, the
 * stored columns, the probe's runner, OTLP attributes and the YAML writer all read it from here.
 */
export interface CheckKind<
  K extends string = string,
  C extends z.ZodObject = z.ZodObject,
  I extends Shape = Shape,
  O extends Shape = Shape,
  R extends object = object,
> {
  readonly kind: K;
  /** What a probe runs. */
  readonly check: C;
  /** The kind's own monitor fields (always `request`) as the API, YAML and forms accept them. */
  readonly input: I;
  /** The same fields as every response shows them. */
  readonly output: O;
  /** When `kind` is omitted, a `request` holding this key means this kind. */
  readonly requestKey: string;
  /** The smallest valid `request`: the YAML writer learns the defaults from it. */
  readonly exampleRequest: Record<string, unknown>;
  /** `request` fields that hold secrets (shown as "***", kept when "***" comes back); forms mask them. */
  readonly secretFields?: readonly string[];
  /** One line for forms: what the check does. */
  readonly describe?: string;
  /**
   * Groups of `request` fields that replace each other: an update naming a field of one group drops the
   * fields of the others (a heartbeat switched from `period` to `cron` loses its period).
   */
  readonly requestAlternatives?: readonly (readonly string[])[];
  /** `request` fields in the order a person writes them in YAML. */
  readonly requestOrder: readonly string[];
  /** Watched by the server (from pings it receives), never sent to a probe: no regions, frequency or retries. */
  readonly serverSide?: boolean;
  /** The check's own fields for a monitor (kind and durations are added by the caller). */
  toCheck(fields: Out<I>): Omit<z.input<C>, "kind" | keyof typeof checkBase>;
  /** The monitor's stored columns; `undefined` clears them (the monitor is of another kind). */
  toRow(fields: Out<I> | undefined, previous?: R): R;
  /** Stored columns back to fields; secrets stay hidden unless `reveal` (the probe needs them). */
  fromRow(row: R, reveal: boolean): Out<O>;
  /** What alerts show as the monitor's URL. */
  target(row: Partial<R>): string;
  /** OTLP attributes (semantic conventions where they exist) for one result. */
  attributes(check: z.output<C>, result: CheckResult): Record<string, string | number>;
}

export const defineCheckKind = <K extends string, C extends z.ZodObject, I extends Shape, O extends Shape, R extends object>(
  kind: CheckKind<K, C, I, O, R>,
): CheckKind<K, C, I, O, R> => kind;

/** A kind whatever its fields, for code that handles every kind alike. */
// biome-ignore lint/suspicious/noExplicitAny: each kind's own types are checked in its folder.
export type AnyCheckKind = CheckKind<string, z.ZodObject, Shape, Shape, any>;
