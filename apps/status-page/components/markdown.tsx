import { renderMarkdown } from "../lib/markdown";

/** Markdown from an incident update or maintenance note, rendered on the server. */
export function Markdown({ source, className = "" }: { source: string; className?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: micromark output, raw HTML escaped and unsafe link protocols dropped
  return <div className={`prose-status ${className}`} dangerouslySetInnerHTML={{ __html: renderMarkdown(source) }} />;
}
