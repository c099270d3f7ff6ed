const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One plain layout for our mail: a line of text, one button, a fallback link. */
export function mailLayout(m: { subject: string; intro: string; action: string; url: string; outro: string }) {
  const text = `${m.intro}\n\n${m.url}\n\n${m.outro}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#18181b">
<p>${esc(m.intro)}</p>
<p><a href="${esc(m.url)}" style="display:inline-block;background:#18181b;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${esc(m.action)}</a></p>
<p style="font-size:13px;color:#52525b">Or paste this link into your browser:<br>${esc(m.url)}</p>
<p style="font-size:13px;color:#52525b">${esc(m.outro)}</p>
</body></html>`;
  return { subject: m.subject, text, html };
}
