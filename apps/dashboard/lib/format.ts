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
