/**
 * The durable photo upload queue: files are written to IndexedDB before anything is sent, grouped
 * into batches of 10, and sent one batch at a time by `flushUploadQueue` — from the page (on start,
 * on `online`, after enqueueing) and from the service worker's background sync. A batch is done
 * only after the server answers; a batch whose answer was lost is checked against the class's
 * photos before it is sent again, so a dropped connection never uploads a file twice.
 * Worker-safe: no window, document or local storage here.
 */
import { UPLOAD_BATCH_SIZE } from '@contract/constants';
import { uploadDb, type UploadBatchRow, type UploadFileRow, type UploadJobRow, type UploadQueueDatabase } from './upload-queue-db';
import { createFetchTransport, type ServerPhoto, type UploadOutcome, type UploadTransport } from './upload-transport';

export const UPLOAD_SYNC_TAG = 'photo-uploads';
const LOCK_NAME = 'staff-photo-uploads';
export const NOT_LOGGED_IN = 'Not logged in. Please log in and try again.';
export const WAITING_FOR_NETWORK = 'Waiting for the network to upload the rest';

export type QueueEvent =
  | { type: 'batch'; jobId: string; index: number; batchCount: number; uploaded: number; total: number }
  | { type: 'complete'; jobId: string; total: number; albumName: string }
  | { type: 'failed'; jobId: string; message: string }
  | { type: 'auth'; jobId: string; message: string }
  | { type: 'waiting'; jobId: string; reason: 'offline' | 'server'; message: string };

/** How a flush ended: idle (nothing left it could send) or stopped until the network returns. */
export type FlushResult = 'idle' | 'offline' | 'retry-later' | 'busy';

export interface FlushOptions {
  db?: UploadQueueDatabase;
  transport?: UploadTransport;
  onEvent?: (event: QueueEvent) => void;
}

export interface EnqueueInput {
  albumId: number;
  albumName: string;
  schoolName: string;
  token: string;
  files: readonly File[];
  /** Previews already made, by the same index as files. */
  previews?: readonly (Blob | null | undefined)[];
}

export const batchCountFor = (files: number, size = UPLOAD_BATCH_SIZE): number => Math.ceil(files / size);

/** The server keeps only the last path segment without control characters (api multipart). */
export function serverName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
}

const photoKey = (name: string, size: number) => `${serverName(name)}\u0000${size}`;

function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Writes the files to the queue (one transaction, so a closed tab leaves all or nothing) and
 * answers the job id. Files already waiting for the same class are skipped, not queued twice.
 */
export async function enqueueUpload(input: EnqueueInput, db: UploadQueueDatabase = uploadDb()): Promise<{ jobId: string; queued: number; skipped: number }> {
  const jobId = randomId();
  return db.transaction('rw', db.jobs, db.batches, db.files, async () => {
    const sameClass = await db.jobs.filter((job) => job.albumId === input.albumId).primaryKeys();
    const waiting = new Set<string>();
    if (sameClass.length > 0) {
      const rows = await db.files.where('jobId').anyOf(sameClass).toArray();
      for (const row of rows) if (row.state === 'queued') waiting.add(`${row.name}\u0000${row.size}\u0000${row.lastModified}`);
    }
    const entries = input.files
      .map((file, index) => ({ file, preview: input.previews?.[index] ?? null }))
      .filter(({ file }) => !waiting.has(`${file.name}\u0000${file.size}\u0000${file.lastModified}`));
    const files = entries.map((entry) => entry.file);
    const skipped = input.files.length - files.length;
    if (files.length === 0) return { jobId, queued: 0, skipped };
    const batchCount = batchCountFor(files.length);
    await db.jobs.add({
      id: jobId,
      albumId: input.albumId,
      albumName: input.albumName,
      schoolName: input.schoolName,
      token: input.token,
      total: files.length,
      batchCount,
      state: 'active',
      error: null,
      createdAt: Date.now(),
    });
    await db.batches.bulkAdd(
      Array.from({ length: batchCount }, (_, index): UploadBatchRow => ({ id: `${jobId}:${index}`, jobId, index, state: 'pending', attempts: 0, error: null })),
    );
    await db.files.bulkAdd(
      files.map(
        (file, position): UploadFileRow => ({
          id: `${jobId}:${position}`,
          jobId,
          batch: Math.floor(position / UPLOAD_BATCH_SIZE),
          position,
          name: file.name,
          size: file.size,
          type: file.type,
          lastModified: file.lastModified,
          blob: file,
          preview: entries[position]?.preview ?? null,
          state: 'queued',
        }),
      ),
    );
    return { jobId, queued: files.length, skipped };
  });
}

/** A new sign-in revives jobs paused on a refused token and lets the worker use the new one. */
export async function refreshQueueToken(token: string, db: UploadQueueDatabase = uploadDb()): Promise<void> {
  await db.transaction('rw', db.jobs, async () => {
    await db.jobs.toCollection().modify((job) => {
      job.token = token;
      if (job.state === 'auth') {
        job.state = 'active';
        job.error = null;
      }
    });
  });
}

/** Sends the failed batches of a job again (after the photographer fixed or removed the file). */
export async function retryJob(jobId: string, db: UploadQueueDatabase = uploadDb()): Promise<void> {
  await db.transaction('rw', db.jobs, db.batches, async () => {
    await db.batches.where('jobId').equals(jobId).modify((batch) => {
      if (batch.state === 'failed') {
        batch.state = 'pending';
        batch.error = null;
      }
    });
    await db.jobs.update(jobId, { state: 'active', error: null });
  });
}

export async function discardJob(jobId: string, db: UploadQueueDatabase = uploadDb()): Promise<void> {
  await db.transaction('rw', db.jobs, db.batches, db.files, async () => {
    await db.files.where('jobId').equals(jobId).delete();
    await db.batches.where('jobId').equals(jobId).delete();
    await db.jobs.delete(jobId);
  });
}

/** True while any job still has something the queue could send. */
export async function hasPendingUploads(db: UploadQueueDatabase = uploadDb()): Promise<boolean> {
  return (await db.jobs.filter((job) => job.state === 'active').count()) > 0;
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

export function flushUploadQueue(options: FlushOptions = {}): Promise<FlushResult> {
  const db = options.db ?? uploadDb();
  const transport = options.transport ?? createFetchTransport();
  const emit = options.onEvent ?? (() => undefined);
  return exclusively(async () => {
    const skip = new Set<string>();
    for (;;) {
      const job = await db.jobs
        .orderBy('createdAt')
        .filter((row) => row.state === 'active' && !skip.has(row.id))
        .first();
      if (!job) return 'idle';
      const result = await flushJob(db, transport, job, emit);
      if (result === 'offline' || result === 'retry-later') return result;
      skip.add(job.id);
    }
  });
}

type JobResult = 'done' | 'offline' | 'retry-later' | 'stopped';

async function flushJob(db: UploadQueueDatabase, transport: UploadTransport, job: UploadJobRow, emit: (event: QueueEvent) => void): Promise<JobResult> {
  const batches = (await db.batches.where('jobId').equals(job.id).toArray()).sort((a, b) => a.index - b.index);
  let serverPhotos: Set<string> | null = null;
  for (const batch of batches) {
    if (batch.state === 'done' || batch.state === 'failed') continue;
    let files = (await db.files.where('[jobId+batch]').equals([job.id, batch.index]).toArray()).filter((file) => file.state === 'queued');
    if (batch.state === 'unknown' && files.length > 0) {
      // The last attempt may have been stored: ask the server before sending anything again.
      if (!serverPhotos) {
        const listed = await transport.listPhotos(job.albumId, job.token);
        if (!Array.isArray(listed)) {
          if (listed.kind !== 'rejected') return stopFor(db, job, listed, emit);
          // The class is gone or closed to this account: nothing can be checked or sent.
          await db.batches.update(batch.id, { state: 'failed', error: listed.message });
          emit({ type: 'failed', jobId: job.id, message: listed.message });
          continue;
        }
        serverPhotos = new Set(listed.map((photo: ServerPhoto) => photoKey(photo.originalName, photo.fileSize)));
      }
      const known = serverPhotos;
      const already = files.filter((file) => known.has(photoKey(file.name, file.size)));
      if (already.length > 0) await markFilesDone(db, already);
      files = files.filter((file) => !known.has(photoKey(file.name, file.size)));
    }
    if (files.length > 0) {
      await db.batches.update(batch.id, { state: 'unknown', attempts: batch.attempts + 1 });
      const outcome = await transport.uploadBatch(job.albumId, files, job.token);
      if (outcome.kind === 'network') {
        emit({ type: 'waiting', jobId: job.id, reason: 'offline', message: WAITING_FOR_NETWORK });
        return 'offline';
      }
      if (outcome.kind !== 'ok') {
        // The server answered, and a refused batch stores nothing: this attempt left no photos.
        if (outcome.kind === 'rejected') {
          await db.batches.update(batch.id, { state: 'failed', error: outcome.message });
          emit({ type: 'failed', jobId: job.id, message: outcome.message });
          // One damaged file must not hold back the rest of the shoot.
          continue;
        }
        await db.batches.update(batch.id, { state: 'pending' });
        return stopFor(db, job, outcome, emit);
      }
      await markFilesDone(db, files);
      // The class changed: a later unknown batch must list it afresh.
      serverPhotos = null;
    }
    await db.batches.update(batch.id, { state: 'done', error: null });
    const uploaded = await db.files.where('jobId').equals(job.id).filter((file) => file.state === 'done').count();
    emit({ type: 'batch', jobId: job.id, index: batch.index, batchCount: job.batchCount, uploaded, total: job.total });
  }
  const failed = await db.batches.where('jobId').equals(job.id).filter((batch) => batch.state === 'failed').first();
  if (failed) {
    await db.jobs.update(job.id, { state: 'failed', error: failed.error });
    return 'stopped';
  }
  await discardJob(job.id, db);
  emit({ type: 'complete', jobId: job.id, total: job.total, albumName: job.albumName });
  return 'done';
}

async function markFilesDone(db: UploadQueueDatabase, files: readonly UploadFileRow[]): Promise<void> {
  // The original is no longer needed once the server has it; the small preview stays for the list.
  await db.files.bulkUpdate(files.map((file) => ({ key: file.id, changes: { state: 'done' as const, blob: new Blob([]) } })));
}

async function stopFor(
  db: UploadQueueDatabase,
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
      await db.jobs.update(job.id, { state: 'auth', error: NOT_LOGGED_IN });
      emit({ type: 'auth', jobId: job.id, message: NOT_LOGGED_IN });
      return 'stopped';
  }
}
