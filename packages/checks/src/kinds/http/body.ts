/** How much of a body checks read; the rest is never buffered. */
export const MAX_BODY_BYTES = 1024 * 1024;

const CHARSET = /charset\s*=\s*"?([^";\s]+)/i;

/** Text of a body in its declared charset (UTF-8 otherwise); bytes that don't decode become U+FFFD, never an error. */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined): string {
  const charset = CHARSET.exec(contentType ?? "")?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      // unknown charset label: fall through to UTF-8
    }
  }
  return new TextDecoder().decode(bytes);
}
