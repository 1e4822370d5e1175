/**
 * The object store did not answer (refused connection, timeout, a 5xx after the SDK's retries):
 * the request may succeed in a moment, so it is a 503 with Retry-After, not a 500.
 */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`object storage unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StorageUnavailableError';
  }
}
