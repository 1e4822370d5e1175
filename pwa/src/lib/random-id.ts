/** A random id (cart lines, idempotency keys, upload jobs and sessions); falls back where randomUUID is missing (http on a LAN). */
export function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
