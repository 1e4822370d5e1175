import http from 'node:http';
import type { MailCatcher } from '../../test/mail-catcher';

export { resetLinkIn, startMailCatcher, type MailCatcher } from '../../test/mail-catcher';

/** Fixtures for the customers API suite: reading mail back, and raw HTTP. */

/** Mails to one address so far. */
export const mailsTo = (catcher: MailCatcher, to: string) => catcher.messages.filter((m) => m.to.includes(to.toLowerCase()));

/** fetch() will not send a made-up Host header; node:http will. */
export function rawPost(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }> {
  const url = new URL(path, baseUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
