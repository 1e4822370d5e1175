/**
 * CSV as spreadsheets read it (RFC 4180): fields with commas, quotes or line breaks quoted, quotes
 * doubled, rows ended with CRLF. Shared by the order export in the PWA and the lab's order sheet.
 */

/**
 * One field (docs/errors.md, "CSV files"). Text a parent typed could start with = + - @ and run as a formula in a spreadsheet,
 * so such a field is prefixed with an apostrophe (OWASP CSV injection advice). A spreadsheet set
 * to another separator (semicolons in many European locales, tabs, pipes) splits the field there
 * and reads each piece as a cell, so a trigger after any separator or line break, spaces aside,
 * gets the apostrophe too: "Neo; =HYPERLINK(...)" becomes "Neo; '=HYPERLINK(...)".
 */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  text = text.replace(/([,;|\t\r\n])([ \t]*)(?=[=+\-@])/g, (_match, separator: string, spaces: string) => `${separator}${spaces}'`);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRows(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
