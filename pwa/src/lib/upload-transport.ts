import type { MatchingSummary, UploadCapture } from '@contract/matching';

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

export type UploadOutcome =
  | { kind: 'ok'; uploaded: number; matching?: MatchingSummary | null }
  /** The request never got an answer: the server may or may not have stored the batch. */
  | { kind: 'network' }
  | { kind: 'auth'; message: string }
  /** Refused for good (bad file, class gone): a resend would be refused again. */
  | { kind: 'rejected'; message: string }
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
      if (response.ok) {
        const body = (await response.json().catch(() => null)) as { uploaded?: unknown; matching?: MatchingSummary | null } | null;
        return { kind: 'ok', uploaded: typeof body?.uploaded === 'number' ? body.uploaded : files.length, matching: body?.matching ?? null };
      }
      const text = await response.text().catch(() => '');
      return classifyStatus(response.status, uploadErrorMessage(response.status, text));
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
