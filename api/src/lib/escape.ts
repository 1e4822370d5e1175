/**
 * Text put into markup the server writes (HTML pages and e-mails, SVG drawn into images): the five
 * characters that could end a text or an attribute are written as character references, valid in
 * both HTML and XML.
 */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
