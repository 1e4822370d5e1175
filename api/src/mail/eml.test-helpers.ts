/** Just enough MIME to read back what nodemailer wrote: headers plus decoded text/plain and text/html parts. */
export interface ParsedEml {
  headers: Record<string, string>;
  text: string;
  html: string;
}

function splitHeaders(raw: string): { headers: Record<string, string>; body: string } {
  const normalised = raw.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: end === -1 ? '' : normalised.slice(end + 2) };
}

function decode(body: string, encoding: string | undefined): string {
  if (encoding?.toLowerCase() === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding?.toLowerCase() === 'quoted-printable') {
    const bytes = body.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  }
  return body;
}

export function parseEml(raw: string): ParsedEml {
  const { headers, body } = splitHeaders(raw);
  const result: ParsedEml = { headers, text: '', html: '' };
  const boundary = /boundary="?([^";]+)"?/.exec(headers['content-type'] ?? '')?.[1];
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1) : [raw];
  for (const part of parts) {
    const { headers: partHeaders, body: partBody } = splitHeaders(part.replace(/^\n/, ''));
    const content = decode(partBody.replace(/\n$/, ''), partHeaders['content-transfer-encoding']);
    if (partHeaders['content-type']?.startsWith('text/plain')) result.text = content;
    if (partHeaders['content-type']?.startsWith('text/html')) result.html = content;
  }
  return result;
}
