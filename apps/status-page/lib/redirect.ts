/** 303 to a path on this site: a plain form POST lands on a page again, without JavaScript. */
export const seeOther = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...headers } });
