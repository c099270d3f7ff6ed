// A monitors file names each entry; a monitor without a key of its own gets one derived from its name.
// Export writes these keys and apply matches them, so a file exported and applied again changes monitors
// in place instead of creating copies.
import { HttpMonitorInput } from "./monitor";

const EntryKey = HttpMonitorInput.shape.key.unwrap();
export const isValidEntryKey = (k: unknown): k is string => typeof k === "string" && EntryKey.safeParse(k).success;

function slug(name: string): string {
  return name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 90);
}

/** Entry keys in order: the monitor's key, else a slug of its name, else `monitor-<id>`; never two alike. */
export function entryKeys(monitors: readonly { key?: string | null; name?: string | null; id?: number }[]): string[] {
  const taken = new Set<string>(monitors.map((m) => m.key).filter(isValidEntryKey));
  return monitors.map((m, i) => {
    if (isValidEntryKey(m.key)) return m.key;
    const base = slug(m.name ?? "") || (m.id !== undefined ? `monitor-${m.id}` : `monitor-${i + 1}`);
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
    taken.add(key);
    return key;
  });
}
