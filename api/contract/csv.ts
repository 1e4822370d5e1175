/**
 * CSV as spreadsheets read it (RFC 4180): fields with commas, quotes or line breaks quoted, quotes
 * doubled, rows ended with CRLF. Shared by the order export in the PWA and the lab's order sheet.
 */

/**
 * One field. Text a parent typed could start with = + - @ and run as a formula in a spreadsheet,
 * so such a field is prefixed with an apostrophe (OWASP CSV injection advice).
 */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRows(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
