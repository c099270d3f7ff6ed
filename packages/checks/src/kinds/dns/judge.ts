import { compareNumbers, outcome, show } from "../../assertions/compare";
import type { AssertionOutcome } from "../../schema";
import type { DnsAssertion, RecordType } from "./index";

export interface DnsAnswer {
  rcode: string;
  answers: string[];
}

/** Records compare as written in a zone file; names ignore case and a trailing dot, TXT and CAA values do not. */
export function normalizeRecord(text: string, type?: RecordType): string {
  const t = text.trim();
  return type === "TXT" || type === "CAA" ? t : t.toLowerCase().replace(/\.$/, "");
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

export function judgeAnswer(a: Exclude<DnsAssertion, { kind: "latency" }>, got: DnsAnswer, type?: RecordType): AssertionOutcome {
  if (a.kind === "rcode") {
    const ok = a.compare === "eq" ? got.rcode === a.target : got.rcode !== a.target;
    return outcome("rcode", "rcode", ok, `${a.compare} ${a.target}`, got.rcode);
  }
  if (a.kind === "answerCount") {
    return outcome(
      "answerCount",
      "answer count",
      compareNumbers(a.compare, got.answers.length, a.target),
      `${a.compare} ${a.target}`,
      String(got.answers.length),
    );
  }
  const have = new Set(got.answers.map((x) => normalizeRecord(x, type)));
  const want = new Set(a.target.map((x) => normalizeRecord(x, type)));
  const containsAll = [...want].every((x) => have.has(x));
  const ok =
    a.compare === "contains"
      ? containsAll
      : a.compare === "not_contains"
        ? ![...want].some((x) => have.has(x))
        : a.compare === "eq"
          ? sameSet(have, want)
          : !sameSet(have, want);
  return outcome("answer", "answer", ok, `${a.compare} ${show([...want])}`, got.answers.length ? show([...have]) : "no records");
}
