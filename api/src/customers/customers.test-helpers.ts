import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseEml } from '../mail/eml.test-helpers';

/** Fixtures for the customers API suite: a real SMTP server to read mail back, and raw HTTP. */

export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

export interface MailCatcher {
  url: string;
  messages: CapturedMail[];
  /** Resolves with the first message (counting from `after`) sent to `to`; rejects after the timeout. */
  waitFor(to: string, after?: number, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
        const parsed = parseEml(raw);
        messages.push({ to, subject: parsed.headers.subject ?? '', text: parsed.text, raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;

  const find = (to: string, after: number) => messages.slice(after).find((m) => m.to.includes(to.toLowerCase()));

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, after = 0, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = find(to, after);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Mails to one address so far. */
export const mailsTo = (catcher: MailCatcher, to: string) => catcher.messages.filter((m) => m.to.includes(to.toLowerCase()));

/** The first link into the reset page found in the text. */
export function resetLinkIn(text: string): URL {
  const match = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+/.exec(text);
  if (!match) throw new Error(`no reset link in mail:\n${text}`);
  return new URL(match[0]);
}

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
