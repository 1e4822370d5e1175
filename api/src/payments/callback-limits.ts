/**
 * The gateway's callbacks (notify and the browser return) are a few hundred bytes of PayWeb3
 * fields. Anything much larger is not PayGate talking, so it is refused before it is read, and
 * what is kept of a callback has a fixed upper size.
 */
export const CALLBACK_PATHS = ['/api/payment/notify', '/api/payment/return'] as const;

/** Largest callback body accepted (413 above it). */
export const CALLBACK_MAX_BYTES = 8 * 1024;

/** Longest raw body stored with an accepted callback; its full size and SHA-256 are kept beside it. */
export const STORED_CALLBACK_CHARS = 4000;

/** Refused callbacks (bad checksum, unreadable) keep only size, hash and reason; this many at most. */
export const MAX_REJECTED_CALLBACKS = 10_000;
