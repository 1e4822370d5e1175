/**
 * What the mail and outbox logs may say of a message (docs/email.md, "What the logs say"): its kind
 * and ids, never its recipient. An SMTP server's or the database's error text may quote an address
 * ("550 <parent@example.bw>: Recipient address rejected"), so error texts are logged with every
 * address taken out.
 */
const ADDRESS = /[^\s<>()[\]"',;:@]+@[^\s<>()[\]"',;:@]+\.[^\s<>()[\]"',;:@]+/g;

export const ADDRESS_REMOVED = '<address>';

export function withoutAddresses(text: string): string {
  return text.replace(ADDRESS, ADDRESS_REMOVED);
}

/** An error as a log line may carry it: its kind, codes and message, addresses taken out (no stack: it adds nothing but the sender's frames). */
export function loggableError(err: unknown): { type: string; message: string; code?: string; responseCode?: number } {
  if (!(err instanceof Error)) return { type: typeof err, message: withoutAddresses(String(err)) };
  const { code, responseCode } = err as { code?: unknown; responseCode?: unknown };
  return {
    type: err.name,
    message: withoutAddresses(err.message),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof responseCode === 'number' ? { responseCode } : {}),
  };
}
