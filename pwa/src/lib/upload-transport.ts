import type { MatchingSummary, UploadCapture } from '@contract/matching';
import { UPLOAD_PARTIAL_STATUS } from '@contract/constants';

/**
 * How the upload queue talks to the API, from the page or the service worker: plain fetch with the
 * token stored on the job (the worker cannot read local storage). Each answer is classified so the
 * queue knows whether the server stored the batch, refused it for good, or may have stored it.
 */
export interface QueuedFile {
  name: string;
  size: number;
  blob: Blob;
}

export interface ServerPhoto {
  originalName: string;
  fileSize: number;
}

/** A file of a batch the server refused on its own (not an image, corrupt, over 10 MB), by the name the server saw. */
export interface RefusedFile {
  name: string;
  reason: string;
}

export type UploadOutcome =
  /** Stored (201), or stored but for the files named in `rejected` (207). */
  | { kind: 'ok'; uploaded: number; matching?: MatchingSummary | null; rejected: RefusedFile[] }
  /** The request never got an answer: the server may or may not have stored the batch. */
  | { kind: 'network' }
  | { kind: 'auth'; message: string }
  /**
   * Refused for good (bad file, class gone): a resend would be refused again. `files` names each
   * refused file with its reason when the server said which (a 400 whose every file was refused).
   */
  | { kind: 'rejected'; message: string; files?: RefusedFile[] }
  /** Overloaded or rate-limited: nothing was stored, try again later. */
  | { kind: 'retry'; message: string };

export interface UploadTransport {
  /** `capture` names the session and each file's capture number, so the server orders, matches and de-duplicates. */
  uploadBatch(albumId: number, files: readonly QueuedFile[], token: string, capture?: UploadCapture | null): Promise<UploadOutcome>;
  /** The class's photos, or why they could not be listed (same classification as an upload). */
  listPhotos(albumId: number, token: string): Promise<ServerPhoto[] | Exclude<UploadOutcome, { kind: 'ok' }>>;
}

export const UPLOAD_FAILED = 'Upload failed';

/** The upload error text: the server's JSON message, else 'Upload failed', else the status. */
export function uploadErrorMessage(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown } | null;
    return parsed && typeof parsed.message === 'string' && parsed.message ? parsed.message : UPLOAD_FAILED;
  } catch {
    return `Upload failed with status ${status}`;
  }
}

/** The `rejected` list of an upload answer, or null when the body has none that reads as one. */
export function refusedFiles(body: unknown): RefusedFile[] | null {
  const list = (body as { rejected?: unknown } | null)?.rejected;
  if (!Array.isArray(list)) return null;
  const files: RefusedFile[] = [];
  for (const entry of list as unknown[]) {
    const { name, reason } = (entry ?? {}) as { name?: unknown; reason?: unknown };
    if (typeof name !== 'string') return null;
    files.push({ name, reason: typeof reason === 'string' && reason ? reason : UPLOAD_FAILED });
  }
  return files;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

export function classifyStatus(status: number, message: string): Exclude<UploadOutcome, { kind: 'ok' | 'network' }> {
  if (status === 401) return { kind: 'auth', message };
  if (status === 408 || status === 429 || status >= 500) return { kind: 'retry', message };
  return { kind: 'rejected', message };
}

export function createFetchTransport(fetchImpl: typeof fetch = (input, init) => fetch(input, init)): UploadTransport {
  return {
    async uploadBatch(albumId, files, token, capture) {
      const form = new FormData();
      form.append('albumId', String(albumId));
      if (capture) form.append('capture', JSON.stringify(capture));
      for (const file of files) form.append('photos', file.blob, file.name);
      let response: Response;
      try {
        response = await fetchImpl('/api/photos/upload-batch', {
          method: 'POST',
          body: form,
          headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
          credentials: 'include',
        });
      } catch {
        return { kind: 'network' };
      }
      const text = await response.text().catch(() => '');
      const body = parseJson(text) as { uploaded?: unknown; matching?: MatchingSummary | null } | null;
      if (response.ok) {
        const rejected = refusedFiles(body);
        // A 207 names the files it refused; without that list nobody knows which ones it stored, so
        // the queue treats it as an answer that got lost and asks the class before sending again.
        if (response.status === UPLOAD_PARTIAL_STATUS && rejected === null) return { kind: 'network' };
        return { kind: 'ok', uploaded: typeof body?.uploaded === 'number' ? body.uploaded : files.length, matching: body?.matching ?? null, rejected: rejected ?? [] };
      }
      const outcome = classifyStatus(response.status, uploadErrorMessage(response.status, text));
      const refused = outcome.kind === 'rejected' ? refusedFiles(body) : null;
      return outcome.kind === 'rejected' && refused && refused.length > 0 ? { ...outcome, files: refused } : outcome;
    },

    async listPhotos(albumId, token) {
      try {
        const response = await fetchImpl(`/api/albums/${albumId}/photos`, {
          headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
          credentials: 'include',
        });
        if (!response.ok) return classifyStatus(response.status, uploadErrorMessage(response.status, await response.text().catch(() => '')));
        return (await response.json()) as ServerPhoto[];
      } catch {
        return { kind: 'network' };
      }
    },
  };
}
