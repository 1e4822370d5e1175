/**
 * The one fetch wrapper: cookies always travel (the gallery grant is an
 * HttpOnly cookie), a bearer header is added from the staff or customer token, JSON in and out,
 * and a failed response becomes an ApiError whose message is `${status}: ${body or status text}`
 * while the server's own `message` field is kept for toasts.
 */
import { getCustomerToken, getStaffToken } from './storage';
import { expireStaffSession } from './staff-expiry';

export type AuthMode = 'staff' | 'customer' | 'auto' | 'none';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The `message` field of the JSON error body, when there is one. */
    readonly serverMessage: string | null,
    readonly code: string | null,
    readonly fieldErrors: Record<string, string> | null,
    /** The HTTP reason phrase ("Payload Too Large"); empty over HTTP/2. */
    readonly statusText: string = '',
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** True when the request never reached the server (offline, DNS, connection reset). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('You appear to be offline. Check your connection and try again.', { cause });
    this.name = 'NetworkError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Which credential to send: staff calls use token, customer calls customerToken. */
  auth?: AuthMode;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Answer null instead of failing on 401 (the optional mode). */
  nullOn401?: boolean;
  /** The browser's HTTP cache mode: `no-cache` asks the server again even when a cached answer is fresh. */
  cache?: RequestCache;
  /** Lets the request finish after the page is gone (a last write as the tab closes). */
  keepalive?: boolean;
}

function bearer(mode: AuthMode): string | null {
  if (mode === 'none') return null;
  if (mode === 'staff') return getStaffToken();
  if (mode === 'customer') return getCustomerToken();
  return getStaffToken() ?? getCustomerToken();
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, auth = 'auto', headers = {}, signal, nullOn401 = false, cache, keepalive } = options;
  const finalHeaders: Record<string, string> = { Accept: 'application/json', ...headers };
  const token = bearer(auth);
  if (token) finalHeaders.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof Blob) {
    // The browser sets the multipart boundary, or the Blob's own type (a CSV upload), itself.
    payload = body;
  } else if (body !== undefined) {
    finalHeaders['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(path, { method, headers: finalHeaders, body: payload, credentials: 'include', signal, keepalive, ...(cache ? { cache } : {}) });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new NetworkError(err);
  }

  // The server refused the staff token it was sent: that session is over, wherever it was used.
  if (response.status === 401 && token !== null && token === getStaffToken()) expireStaffSession();
  if (response.status === 401 && nullOn401) return null as T;
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return null as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** The ApiError of a failed response, for callers that fetch a file themselves (downloads). */
export async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let serverMessage: string | null = null;
  let code: string | null = null;
  let fieldErrors: Record<string, string> | null = null;
  try {
    const parsed = JSON.parse(text) as { message?: unknown; code?: unknown; errors?: unknown };
    if (typeof parsed.message === 'string') serverMessage = parsed.message;
    if (typeof parsed.code === 'string') code = parsed.code;
    if (parsed.errors && typeof parsed.errors === 'object') fieldErrors = parsed.errors as Record<string, string>;
  } catch {
    // Not JSON: the text itself is the message.
  }
  return new ApiError(response.status, `${response.status}: ${text || response.statusText}`, serverMessage, code, fieldErrors, response.statusText);
}

/** The text a toast shows: the server's message when it sent one, else the fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.serverMessage ?? fallback;
  if (err instanceof NetworkError) return err.message;
  return fallback;
}

