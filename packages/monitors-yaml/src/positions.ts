import * as yaml from "js-yaml";

/** One segment of a key path: a map key or a list index. */
export type Segment = string | number;
export type Position = { line: number; column: number };

type Duplicate = { path: Segment[]; at: number; firstAt: number };

/**
 * Where each node of a YAML document starts, by key path. js-yaml 5 has no `listener` option any more;
 * its event stream carries source offsets instead, which is all we need to point errors at lines.
 */
export type SourceIndex = {
  /** Number of YAML documents in the stream (a monitors file must hold exactly one). */
  documents: number;
  /** Offset of the first node of the second document, when there is one. */
  secondDocumentAt: number;
  /** Offset of the root node of the first document, null when the file is empty. */
  root: { at: number } | null;
  /** Top-level keys in file order (object key order would move numeric keys first). */
  entryKeys: string[];
  duplicates: Duplicate[];
  /** Offset of the key of a map entry, by path. */
  keys: Map<string, number>;
  /** Offset of a value, by path. */
  values: Map<string, number>;
  lineStarts: number[];
};

export const pathId = (path: readonly Segment[]): string => path.map(String).join("\u001f");

type Frame =
  | { kind: "skip" }
  | { kind: "list"; path: Segment[]; index: number }
  | { kind: "map"; path: Segment[]; start: number; expect: "key" | "value"; key: string | undefined; seen: Map<string, number> };

function nodeStart(e: yaml.Event): number {
  if (e.type === yaml.EVENT_ID.SCALAR) {
    if (e.valueStart < 0) return -1; // an empty value has no text of its own
    // Quoted scalars report the first character inside the quotes; point at the quote.
    const quoted = e.style === yaml.SCALAR_STYLE.SINGLE_QUOTED || e.style === yaml.SCALAR_STYLE.DOUBLE_QUOTED;
    return quoted ? e.valueStart - 1 : e.valueStart;
  }
  if (e.type === yaml.EVENT_ID.MAPPING || e.type === yaml.EVENT_ID.SEQUENCE) return e.start;
  if (e.type === yaml.EVENT_ID.ALIAS) return e.anchorStart - 1;
  return -1;
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** Builds the index from js-yaml's events. Throws js-yaml's YAMLException for a syntax error. */
export function indexSource(text: string, events: yaml.Event[]): SourceIndex {
  const index: SourceIndex = {
    documents: 0,
    secondDocumentAt: -1,
    root: null,
    entryKeys: [],
    duplicates: [],
    keys: new Map(),
    values: new Map(),
    lineStarts: lineStartsOf(text),
  };
  let stack: Frame[] = [];
  let inFirstDocument = false;

  for (const e of events) {
    if (e.type === yaml.EVENT_ID.DOCUMENT) {
      index.documents++;
      inFirstDocument = index.documents === 1;
      stack = [];
      continue;
    }
    if (e.type === yaml.EVENT_ID.POP) {
      stack.pop();
      continue;
    }
    const at = nodeStart(e);
    const isCollection = e.type === yaml.EVENT_ID.MAPPING || e.type === yaml.EVENT_ID.SEQUENCE;
    const open = (path: Segment[]) => {
      if (e.type === yaml.EVENT_ID.MAPPING) stack.push({ kind: "map", path, start: at, expect: "key", key: undefined, seen: new Map() });
      else if (e.type === yaml.EVENT_ID.SEQUENCE) stack.push({ kind: "list", path, index: 0 });
    };
    if (!inFirstDocument) {
      if (index.documents === 2 && index.secondDocumentAt < 0) index.secondDocumentAt = at;
      if (isCollection) stack.push({ kind: "skip" });
      continue;
    }
    const top = stack.at(-1);
    if (!top) {
      index.root = { at: Math.max(at, 0) };
      index.values.set(pathId([]), Math.max(at, 0));
      open([]);
      continue;
    }
    if (top.kind === "skip") {
      if (isCollection) stack.push({ kind: "skip" });
      continue;
    }
    if (top.kind === "map" && top.expect === "key") {
      top.expect = "value";
      if (e.type !== yaml.EVENT_ID.SCALAR) {
        // A collection or alias used as a key: nothing in a monitors file can match it.
        top.key = undefined;
        if (isCollection) stack.push({ kind: "skip" });
        continue;
      }
      const key = yaml.getScalarValue(text, e);
      const path = [...top.path, key];
      const keyAt = at >= 0 ? at : Math.max(top.start, 0); // an empty key (`? `) has no text of its own
      const first = top.seen.get(key);
      if (first !== undefined) index.duplicates.push({ path, at: keyAt, firstAt: first });
      else {
        top.seen.set(key, keyAt);
        if (top.path.length === 0) index.entryKeys.push(key);
      }
      // The last occurrence of a duplicated key is the one js-yaml keeps, so point at that one.
      index.keys.set(pathId(path), keyAt);
      top.key = key;
      continue;
    }
    let path: Segment[];
    if (top.kind === "map") {
      top.expect = "key";
      if (top.key === undefined) {
        if (isCollection) stack.push({ kind: "skip" });
        continue;
      }
      path = [...top.path, top.key];
    } else {
      path = [...top.path, top.index++];
    }
    const id = pathId(path);
    if (at >= 0) index.values.set(id, at);
    else index.values.delete(id);
    open(path);
  }
  return index;
}

export function toPosition(index: SourceIndex, offset: number): Position {
  const starts = index.lineStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
}

/**
 * Where to point for a problem at `path`: the value itself, else its key, else the closest ancestor that
 * exists in the file (a missing `request.url` points at `request:`).
 */
export function locate(index: SourceIndex, path: readonly Segment[], prefer: "value" | "key" = "value"): Position {
  for (let n = path.length; n >= 0; n--) {
    const id = pathId(path.slice(0, n));
    const value = index.values.get(id);
    const key = index.keys.get(id);
    const exact = n === path.length && prefer === "value" ? (value ?? key) : (key ?? value);
    if (exact !== undefined) return toPosition(index, exact);
  }
  return { line: 1, column: 1 };
}
