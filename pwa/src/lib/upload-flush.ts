/**
 * Sending the staff upload queue, one batch at a time, from the page or from the service worker's
 * background sync. A batch is done only after the server answers; a batch whose answer was lost is
 * checked against the class's photos before it is sent again, so a dropped connection never
 * uploads a file twice. The queue is read and written through `UploadQueueStore`: the page passes
 * its Dexie database (upload-queue.ts), the service worker a few plain IndexedDB calls
 * (upload-queue-idb.ts), so a parent's phone never downloads Dexie with the worker.
 * Worker-safe: no window, document or local storage here, and no Dexie.
 */
import type { MatchingSummary, UploadCapture } from '@contract/matching';
import type { UploadBatchRow, UploadFileRow, UploadJobRow } from './upload-queue-db';
import type { RefusedFile, ServerPhoto, UploadOutcome, UploadTransport } from './upload-transport';

export const UPLOAD_SYNC_TAG = 'photo-uploads';
const LOCK_NAME = 'staff-photo-uploads';
export const NOT_LOGGED_IN = 'Not logged in. Please log in and try again.';
export const WAITING_FOR_NETWORK = 'Waiting for the network to upload the rest';

export type QueueEvent =
  | { type: 'batch'; jobId: string; index: number; batchCount: number; uploaded: number; total: number; matching: MatchingSummary | null }
  | { type: 'complete'; jobId: string; total: number; albumName: string; albumId: number; matching: MatchingSummary | null }
  | { type: 'failed'; jobId: string; message: string }
  /** The job has sent everything it could; the server refused these files (never sent again), the rest are stored. */
  | { type: 'refused'; jobId: string; stored: number; files: RefusedFile[]; albumName: string; albumId: number; matching: MatchingSummary | null }
  | { type: 'auth'; jobId: string; message: string }
  | { type: 'waiting'; jobId: string; reason: 'offline' | 'server'; message: string };

/** How a flush ended: idle (nothing left it could send) or stopped until the network returns. */
export type FlushResult = 'idle' | 'offline' | 'retry-later' | 'busy';

/** What sending the queue reads and writes; each call is its own transaction. */
export interface UploadQueueStore {
  /** The oldest job still to send (state active) that is not in `skip`. */
  nextActiveJob(skip: ReadonlySet<string>): Promise<UploadJobRow | undefined>;
  /** The job's batches by index. */
  batchesOf(jobId: string): Promise<UploadBatchRow[]>;
  /** The files of one batch still waiting to be sent, by position. */
  queuedFiles(jobId: string, batch: number): Promise<UploadFileRow[]>;
  updateBatch(id: string, changes: Partial<Pick<UploadBatchRow, 'state' | 'attempts' | 'error'>>): Promise<void>;
  updateJob(id: string, changes: Partial<Pick<UploadJobRow, 'state' | 'error'>>): Promise<void>;
  /** The server has these files: marked done, their original dropped (the small preview stays). */
  markFilesDone(ids: readonly string[]): Promise<void>;
  /** The server refused these files for good: marked failed with its reason, their original dropped (never sent again). */
  markFilesFailed(failures: readonly { id: string; error: string }[]): Promise<void>;
  countDoneFiles(jobId: string): Promise<number>;
  /** The job's files the server refused, by position, each with its reason. */
  refusedFiles(jobId: string): Promise<RefusedFile[]>;
  firstFailedBatch(jobId: string): Promise<UploadBatchRow | undefined>;
  /** The job, its batches and its files, all or nothing. */
  discardJob(jobId: string): Promise<void>;
  /** Keeps the server's latest matching summary with the class's upload session, for the upload screen. */
  saveMatching(albumId: number, sessionId: string, summary: MatchingSummary): Promise<void>;
}

export interface FlushQueueOptions {
  transport: UploadTransport;
  onEvent?: (event: QueueEvent) => void;
}

/** The server keeps only the last path segment without control characters (api multipart). */
export function serverName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
}

const photoKey = (name: string, size: number) => `${serverName(name)}\u0000${size}`;

/**
 * The queued files the server named as refused, each with its reason. A name refuses one file
 * (two files of a batch may share a name; a refused name never takes a second file with it).
 */
export function matchRefused(files: readonly UploadFileRow[], refused: readonly RefusedFile[]): Map<string, string> {
  const matched = new Map<string, string>();
  const same = (a: string, b: string) => a.normalize('NFC') === b.normalize('NFC');
  for (const entry of refused) {
    const file = files.find((candidate) => !matched.has(candidate.id) && same(serverName(candidate.name), serverName(entry.name)));
    if (file) matched.set(file.id, entry.reason);
  }
  return matched;
}

async function markRefused(store: UploadQueueStore, refused: ReadonlyMap<string, string>): Promise<void> {
  if (refused.size > 0) await store.markFilesFailed([...refused].map(([id, error]) => ({ id, error })));
}

/** The batch's place in its session: each file by the name the server will see, its size and its capture number. */
export function captureOf(job: UploadJobRow, files: readonly UploadFileRow[]): UploadCapture | null {
  if (!job.sessionId) return null;
  return { sessionId: job.sessionId, files: files.map((file) => ({ name: serverName(file.name), size: file.size, seq: file.captureSeq ?? file.position })) };
}

let flushingHere = false;

/** One flush at a time across the page, other tabs and the service worker (Web Locks where present). */
async function exclusively(run: () => Promise<FlushResult>): Promise<FlushResult> {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  if (flushingHere) return 'busy';
  flushingHere = true;
  try {
    if (locks?.request) return await locks.request(LOCK_NAME, { ifAvailable: true }, (lock) => (lock ? run() : 'busy'));
    return await run();
  } finally {
    flushingHere = false;
  }
}

export function flushQueue(store: UploadQueueStore, options: FlushQueueOptions): Promise<FlushResult> {
  const emit = options.onEvent ?? (() => undefined);
  return exclusively(async () => {
    const skip = new Set<string>();
    for (;;) {
      const job = await store.nextActiveJob(skip);
      if (!job) return 'idle';
      const result = await flushJob(store, options.transport, job, emit);
      if (result === 'offline' || result === 'retry-later') return result;
      skip.add(job.id);
    }
  });
}

type JobResult = 'done' | 'offline' | 'retry-later' | 'stopped';

async function flushJob(store: UploadQueueStore, transport: UploadTransport, job: UploadJobRow, emit: (event: QueueEvent) => void): Promise<JobResult> {
  const batches = await store.batchesOf(job.id);
  let serverPhotos: Set<string> | null = null;
  let matching: MatchingSummary | null = null;
  for (const batch of batches) {
    if (batch.state === 'done' || batch.state === 'failed') continue;
    let files = await store.queuedFiles(job.id, batch.index);
    if (batch.state === 'unknown' && files.length > 0) {
      // The last attempt may have been stored: ask the server before sending anything again.
      if (!serverPhotos) {
        const listed = await transport.listPhotos(job.albumId, job.token);
        if (!Array.isArray(listed)) {
          if (listed.kind !== 'rejected') return stopFor(store, job, listed, emit);
          // The class is gone or closed to this account: nothing can be checked or sent.
          await store.updateBatch(batch.id, { state: 'failed', error: listed.message });
          emit({ type: 'failed', jobId: job.id, message: listed.message });
          continue;
        }
        serverPhotos = new Set(listed.map((photo: ServerPhoto) => photoKey(photo.originalName, photo.fileSize)));
      }
      const known = serverPhotos;
      const already = files.filter((file) => known.has(photoKey(file.name, file.size)));
      if (already.length > 0) await store.markFilesDone(already.map((file) => file.id));
      files = files.filter((file) => !known.has(photoKey(file.name, file.size)));
    }
    if (files.length > 0) {
      await store.updateBatch(batch.id, { state: 'unknown', attempts: batch.attempts + 1 });
      const outcome = await transport.uploadBatch(job.albumId, files, job.token, captureOf(job, files));
      if (outcome.kind === 'network') {
        emit({ type: 'waiting', jobId: job.id, reason: 'offline', message: WAITING_FOR_NETWORK });
        return 'offline';
      }
      if (outcome.kind !== 'ok') {
        // The server answered, and a refused batch stores nothing: this attempt left no photos.
        if (outcome.kind === 'rejected') {
          // Files the server named are refused one by one with their reason and never sent again;
          // a batch refused as a whole (or with files it did not name) fails and waits for Retry.
          const refused = matchRefused(files, outcome.files ?? []);
          await markRefused(store, refused);
          if (refused.size < files.length) {
            await store.updateBatch(batch.id, { state: 'failed', error: outcome.message });
            emit({ type: 'failed', jobId: job.id, message: outcome.message });
            // One damaged file must not hold back the rest of the shoot.
            continue;
          }
        } else {
          await store.updateBatch(batch.id, { state: 'pending' });
          return stopFor(store, job, outcome, emit);
        }
      } else {
        // A 207: the files it names were refused, every other one is stored.
        const refused = matchRefused(files, outcome.rejected);
        await markRefused(store, refused);
        await store.markFilesDone(files.filter((file) => !refused.has(file.id)).map((file) => file.id));
      }
      // The class changed: a later unknown batch must list it afresh.
      serverPhotos = null;
      if (outcome.kind === 'ok' && outcome.matching) {
        matching = outcome.matching;
        await store.saveMatching(job.albumId, job.sessionId, outcome.matching);
      }
    }
    await store.updateBatch(batch.id, { state: 'done', error: null });
    const uploaded = await store.countDoneFiles(job.id);
    emit({ type: 'batch', jobId: job.id, index: batch.index, batchCount: job.batchCount, uploaded, total: job.total, matching });
  }
  const failed = await store.firstFailedBatch(job.id);
  if (failed) {
    await store.updateJob(job.id, { state: 'failed', error: failed.error });
    return 'stopped';
  }
  // Refused files stay in the queue, by name with the reason, until the photographer has read them and discards the job.
  const refused = await store.refusedFiles(job.id);
  const first = refused[0];
  if (first) {
    await store.updateJob(job.id, { state: 'failed', error: `${first.name}: ${first.reason}` });
    emit({ type: 'refused', jobId: job.id, stored: await store.countDoneFiles(job.id), files: refused, albumName: job.albumName, albumId: job.albumId, matching });
    return 'stopped';
  }
  await store.discardJob(job.id);
  emit({ type: 'complete', jobId: job.id, total: job.total, albumName: job.albumName, albumId: job.albumId, matching });
  return 'done';
}

async function stopFor(
  store: UploadQueueStore,
  job: UploadJobRow,
  outcome: Exclude<UploadOutcome, { kind: 'ok' | 'rejected' }>,
  emit: (event: QueueEvent) => void,
): Promise<JobResult> {
  switch (outcome.kind) {
    case 'network':
      emit({ type: 'waiting', jobId: job.id, reason: 'offline', message: WAITING_FOR_NETWORK });
      return 'offline';
    case 'retry':
      emit({ type: 'waiting', jobId: job.id, reason: 'server', message: outcome.message });
      return 'retry-later';
    case 'auth':
      await store.updateJob(job.id, { state: 'auth', error: NOT_LOGGED_IN });
      emit({ type: 'auth', jobId: job.id, message: NOT_LOGGED_IN });
      return 'stopped';
  }
}
