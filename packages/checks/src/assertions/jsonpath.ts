/**
 * The JSONPath subset checks need: `$`, `.name`, `['name']` / `["name"]`, `[0]` / `[-1]`, and `*` / `[*]`.
 * Filters, slices, unions and recursive descent are refused with a clear error rather than guessed at.
 */
export type PathSegment = { type: "key"; key: string } | { type: "index"; index: number } | { type: "wildcard" };

export class JsonPathError extends Error {}

const NAME = /^[^.[\]\s'"*]+/;

function readQuoted(path: string, start: number): { key: string; end: number } {
  const quote = path[start];
  let key = "";
  for (let i = start + 1; i < path.length; i++) {
    const c = path[i]!;
    if (c === "\\") {
      const next = path[i + 1];
      if (next === undefined) break;
      key += next === "n" ? "\n" : next === "t" ? "\t" : next;
      i++;
    } else if (c === quote) {
      return { key, end: i + 1 };
    } else {
      key += c;
    }
  }
  throw new JsonPathError(`unterminated string at position ${start}`);
}

export function parseJsonPath(path: string): PathSegment[] {
  if (!path.startsWith("$")) throw new JsonPathError("must start with $");
  const segments: PathSegment[] = [];
  let i = 1;
  while (i < path.length) {
    const c = path[i];
    if (c === "." && path[i + 1] === ".") throw new JsonPathError("recursive descent (..) is not supported");
    if (c === ".") {
      if (path[i + 1] === "*") {
        segments.push({ type: "wildcard" });
        i += 2;
        continue;
      }
      const name = NAME.exec(path.slice(i + 1))?.[0];
      if (!name) throw new JsonPathError(`expected a name after "." at position ${i}`);
      segments.push({ type: "key", key: name });
      i += 1 + name.length;
      continue;
    }
    if (c === "[") {
      let j = i + 1;
      while (path[j] === " ") j++;
      const open = path[j];
      if (open === "'" || open === '"') {
        const { key, end } = readQuoted(path, j);
        segments.push({ type: "key", key });
        j = end;
      } else if (open === "*") {
        segments.push({ type: "wildcard" });
        j++;
      } else {
        const digits = /^-?\d+/.exec(path.slice(j))?.[0];
        if (!digits)
          throw new JsonPathError(`expected an index, '*' or a quoted name at position ${j} (filters and slices are not supported)`);
        segments.push({ type: "index", index: Number(digits) });
        j += digits.length;
      }
      while (path[j] === " ") j++;
      if (path[j] !== "]") throw new JsonPathError(`expected "]" at position ${j}`);
      i = j + 1;
      continue;
    }
    throw new JsonPathError(`unexpected "${c}" at position ${i}`);
  }
  return segments;
}

/**
 * Evaluates a parsed path. Without a wildcard: the single value there, or undefined when nothing is.
 * With a wildcard: the array of every value matched (possibly empty).
 */
export function queryJsonPath(document: unknown, segments: PathSegment[]): unknown {
  let current: unknown[] = [document];
  for (const seg of segments) {
    const next: unknown[] = [];
    for (const node of current) {
      if (typeof node !== "object" || node === null) continue;
      if (seg.type === "wildcard") {
        next.push(...(Array.isArray(node) ? node : Object.values(node)));
      } else if (seg.type === "index") {
        if (!Array.isArray(node)) continue;
        const i = seg.index < 0 ? node.length + seg.index : seg.index;
        if (i >= 0 && i < node.length) next.push(node[i]);
      } else if (!Array.isArray(node) && Object.hasOwn(node, seg.key)) {
        next.push((node as Record<string, unknown>)[seg.key]);
      }
    }
    current = next;
  }
  return segments.some((s) => s.type === "wildcard") ? current : current[0];
}
