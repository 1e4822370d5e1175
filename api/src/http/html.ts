/** Everything echoed into server-rendered HTML (sandbox pages, e-mails) goes through this. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
