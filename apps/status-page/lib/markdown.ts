import { micromark } from "micromark";

/**
 * Markdown to HTML with raw HTML escaped and dangerous link protocols (javascript:, data:) dropped:
 * micromark's defaults, spelled out so nobody turns them on by accident.
 */
export function renderMarkdown(source: string): string {
  return micromark(source, { allowDangerousHtml: false, allowDangerousProtocol: false });
}
