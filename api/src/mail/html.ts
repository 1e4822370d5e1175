import { escapeHtml } from '../lib/escape';

export { escapeHtml };

/** Links in mails come from our own config, but an href is the one place where escaping is not enough. */
export function safeHref(url: string): string {
  const protocol = URL.canParse(url) ? new URL(url).protocol : '';
  if (protocol !== 'https:' && protocol !== 'http:') throw new TypeError(`Refusing a non-http(s) link in an e-mail: ${url.slice(0, 40)}`);
  return escapeHtml(url);
}

const STYLE = {
  body: 'margin:0;padding:0;background:#f3f5f7;font-family:Arial,Helvetica,sans-serif;color:#1b1f24',
  card: 'max-width:560px;margin:0 auto;padding:24px;background:#ffffff',
  button: 'display:inline-block;padding:12px 20px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold',
};

export function button(url: string, label: string): string {
  return `<p><a href="${safeHref(url)}" style="${STYLE.button}">${escapeHtml(label)}</a></p>`;
}

/** Table-free single column with inline styles: what mail clients render reliably. */
export function layout(businessName: string, title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="${STYLE.body}">
<div style="${STYLE.card}">
<p style="font-size:18px;font-weight:bold;margin:0 0 16px">${escapeHtml(businessName)}</p>
${content}
</div>
</body>
</html>`;
}
