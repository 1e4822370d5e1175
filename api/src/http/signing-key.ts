import { createSecretKey, type KeyObject } from 'node:crypto';

/**
 * The HS256 key for jsonwebtoken, made once. Given a plain string, jsonwebtoken first tries to read
 * it as a PEM public key on every sign and verify, and only after that fails (an exception) makes
 * the secret key; on the image path that was a quarter of the server's CPU. The key object is the
 * same key without that detour.
 */
export function hmacKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret));
}
