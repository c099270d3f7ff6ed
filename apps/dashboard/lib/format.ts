/** "3 min ago", "2 h ago", or a date for anything older than a week. */
export function ago(ms: number | null | undefined, now = Date.now()): string {
  if (ms === null || ms === undefined) return "never";
  const s = Math.round((now - ms) / 1000);
  if (s < 10) return "just now";
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 7 * 86_400) return `${Math.floor(s / 86_400)} d ago`;
  return date(ms);
}

export const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const dateTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
/** Unix seconds (the workspace plan columns) as a date, or a dash. */
export const unixDate = (s: number | null | undefined) => (s ? date(s * 1000) : "—");

/** "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  return h % 24 ? `${Math.floor(h / 24)} d ${h % 24} h` : `${Math.floor(h / 24)} d`;
}

/** Who did something, for people: a member by email, an alert's link by its channel; anything else as recorded. */
export function actorLabel(actor: string, emails: ReadonlyMap<string, string>): string {
  if (actor.startsWith("user:")) return emails.get(actor.slice(5)) ?? actor;
  if (actor.startsWith("link:")) return `the link in the “${actor.slice(5)}” alert`;
  return actor;
}
