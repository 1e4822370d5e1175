/** One error model end to end: every failure becomes `{ message, code, errors? }` (docs/errors.md). */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = defaultCode(status),
    readonly errors?: Record<string, string>,
    readonly headers?: Record<string, string>,
    /** More fields of the answer beside message and code (e.g. an upload's `rejected` files). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

function defaultCode(status: number): string {
  return (
    {
      400: 'VALIDATION_FAILED',
      401: 'UNAUTHENTICATED',
      403: 'FORBIDDEN',
      404: 'NOT_FOUND',
      409: 'CONFLICT',
      413: 'TOO_LARGE',
      415: 'UNSUPPORTED_TYPE',
      429: 'RATE_LIMITED',
      503: 'UNAVAILABLE',
    }[status] ?? 'ERROR'
  );
}

export const badRequest = (message: string, errors?: Record<string, string>, code?: string) =>
  new AppError(400, message, code ?? 'VALIDATION_FAILED', errors);
export const unauthorized = (message: string, code = 'UNAUTHENTICATED') => new AppError(401, message, code);
export const forbidden = (message: string, code = 'FORBIDDEN') => new AppError(403, message, code);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, message, code);
export const tooLarge = (message: string) => new AppError(413, message);
export const unsupportedType = (message: string) => new AppError(415, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, message, 'RATE_LIMITED', undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
