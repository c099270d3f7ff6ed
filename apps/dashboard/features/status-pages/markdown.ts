import { micromark } from "micromark";

/** As the public status page renders it: raw HTML escaped, javascript:/data: links dropped. */
export const renderMarkdown = (source: string): string => micromark(source, { allowDangerousHtml: false, allowDangerousProtocol: false });
