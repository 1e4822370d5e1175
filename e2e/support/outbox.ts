/** Reads links out of the e-mails the server wrote to its outbox folder (D7). */
import fs from 'node:fs';
import path from 'node:path';

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Waits for an e-mail to `to` containing a /reset-password link and returns that link. */
export async function waitForResetLink(outboxDir: string, to: string, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = fs.existsSync(outboxDir) ? fs.readdirSync(outboxDir).filter((name) => name.endsWith('.eml')).sort().reverse() : [];
    for (const file of files) {
      const raw = decodeQuotedPrintable(fs.readFileSync(path.join(outboxDir, file), 'utf8'));
      if (!raw.toLowerCase().includes(to.toLowerCase())) continue;
      const match = /https?:\/\/[^\s"'<>]+\/reset-password\?token=[A-Za-z0-9_\-.%]+/.exec(raw);
      if (match) return match[0];
    }
    if (Date.now() > deadline) throw new Error(`No reset e-mail for ${to} in ${outboxDir}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
