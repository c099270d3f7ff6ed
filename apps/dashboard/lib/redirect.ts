/**
 * The same-origin path a user-given redirect target (`callbackUrl`, `redirectTo`) may lead to, or "/".
 * Browsers read `/\host`, `\\host` and tabs or newlines inside a URL as ways to another host, so anything
 * with a backslash or a control character is refused before parsing; what is left must resolve to
 * `origin` and come out as a path that a browser cannot read as protocol-relative (`//host`).
 */
export function safeRedirectPath(target: unknown, origin: string): string {
  if (typeof target !== "string" || target === "") return "/";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\\\u0000-\u001f\u007f]/.test(target)) return "/";
  let u: URL;
  try {
    u = new URL(target, origin);
  } catch {
    return "/";
  }
  if (u.origin !== new URL(origin).origin) return "/";
  const path = `${u.pathname}${u.search}${u.hash}`;
  return path.startsWith("/") && !path.startsWith("//") ? path : "/";
}
