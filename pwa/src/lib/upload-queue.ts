/**
 * The durable photo upload queue: files are written to IndexedDB before anything is sent, grouped
 * into batches of 10, and sent one batch at a time by `flushUploadQueue` — from the page (on start,
 * on `online`, after enqueueing) and from the service worker's background sync (upload-flush.ts
 * holds the sending, over this Dexie database here and over plain IndexedDB in the worker).
 * Worker-safe: no window, document or local storage here.
 */
import { UPLOAD_BATCH_SIZE, UPLOAD_SESSION_IDLE_MS } from '@contract/constants';
import { compareNames } from '@contract/format';
import { uploadDb, type UploadBatchRow, type UploadFileRow, type UploadQueueDatabase } from './upload-queue-db';
import { createFetchTransport, type UploadTransport } from './upload-transport';
import { randomId } from './random-id';
import { flushQueue, serverName, type FlushResult, type QueueEvent, type UploadQueueStore } from './upload-flush';

export { NOT_LOGGED_IN, UPLOAD_SYNC_TAG, WAITING_FOR_NETWORK, serverName, type FlushResult, type QueueEvent } from './upload-flush';

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


/**
 * Writes the files to the queue (one transaction, so a closed tab leaves all or nothing) and
 * answers the job id. Files already waiting for the same class are skipped, not queued twice.
 * Every file gets its capture number now, in file-name order after the photos the class's upload
 * session already holds, so the server orders and matches the shoot the same way whatever happens
 * to the connection, the tab or the batches afterwards. A session continues while photos for the
 * class keep coming within UPLOAD_SESSION_IDLE_MS.
 */
export async function enqueueUpload(
  input: EnqueueInput,
  db: UploadQueueDatabase = uploadDb(),
  now: number = Date.now(),
): Promise<{ jobId: string; queued: number; skipped: number; sessionId: string }> {
  const jobId = randomId();
  return db.transaction('rw', [db.jobs, db.batches, db.files, db.sessions], async () => {
    const sameClass = await db.jobs.filter((job) => job.albumId === input.albumId).primaryKeys();
    const waiting = new Set<string>();
    if (sameClass.length > 0) {
      const rows = await db.files.where('jobId').anyOf(sameClass).toArray();
      for (const row of rows) if (row.state === 'queued') waiting.add(`${row.name}\u0000${row.size}\u0000${row.lastModified}`);
    }
    const entries = input.files
      .map((file, index) => ({ file, preview: input.previews?.[index] ?? null }))
      .filter(({ file }) => !waiting.has(`${file.name}\u0000${file.size}\u0000${file.lastModified}`))
      .sort((a, b) => compareNames(a.file.name, b.file.name)); // camera names in shooting order: IMG_2 before IMG_10
    const files = entries.map((entry) => entry.file);
    const skipped = input.files.length - files.length;
    const current = await db.sessions.get(input.albumId);
    const session =
      current && now - current.updatedAt < UPLOAD_SESSION_IDLE_MS ? current : { albumId: input.albumId, sessionId: randomId(), nextSeq: 0, updatedAt: now, summary: null };
    if (files.length === 0) return { jobId, queued: 0, skipped, sessionId: session.sessionId };
    await db.sessions.put({ ...session, nextSeq: session.nextSeq + files.length, updatedAt: now });
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
      createdAt: now,
      sessionId: session.sessionId,
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
          captureSeq: session.nextSeq + position,
        }),
      ),
    );
    return { jobId, queued: files.length, skipped, sessionId: session.sessionId };
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

/** The Dexie database as the queue's sender reads and writes it. */
export function dexieQueueStore(db: UploadQueueDatabase): UploadQueueStore {
  return {
    nextActiveJob: (skip) =>
      db.jobs
        .orderBy('createdAt')
        .filter((row) => row.state === 'active' && !skip.has(row.id))
        .first(),
    batchesOf: async (jobId) => (await db.batches.where('jobId').equals(jobId).toArray()).sort((a, b) => a.index - b.index),
    queuedFiles: async (jobId, batch) =>
      (await db.files.where('[jobId+batch]').equals([jobId, batch]).toArray()).filter((file) => file.state === 'queued').sort((a, b) => a.position - b.position),
    updateBatch: async (id, changes) => {
      await db.batches.update(id, changes);
    },
    updateJob: async (id, changes) => {
      await db.jobs.update(id, changes);
    },
    markFilesDone: async (ids) => {
      await db.files.bulkUpdate(ids.map((key) => ({ key, changes: { state: 'done' as const, blob: new Blob([]) } })));
    },
    markFilesFailed: async (failures) => {
      await db.files.bulkUpdate(failures.map(({ id, error }) => ({ key: id, changes: { state: 'failed' as const, error, blob: new Blob([]) } })));
    },
    refusedFiles: async (jobId) =>
      (await db.files.where('jobId').equals(jobId).sortBy('position'))
        .filter((file) => file.state === 'failed')
        .map((file) => ({ name: serverName(file.name), reason: file.error ?? '' })),
    countDoneFiles: (jobId) =>
      db.files
        .where('jobId')
        .equals(jobId)
        .filter((file) => file.state === 'done')
        .count(),
    firstFailedBatch: (jobId) =>
      db.batches
        .where('jobId')
        .equals(jobId)
        .filter((batch) => batch.state === 'failed')
        .first(),
    discardJob: (jobId) => discardJob(jobId, db),
    saveMatching: async (albumId, sessionId, summary) => {
      await db.transaction('rw', db.sessions, async () => {
        const row = await db.sessions.get(albumId);
        if (row?.sessionId === sessionId) await db.sessions.put({ ...row, summary });
      });
    },
  };
}

export function flushUploadQueue(options: FlushOptions = {}): Promise<FlushResult> {
  return flushQueue(dexieQueueStore(options.db ?? uploadDb()), { transport: options.transport ?? createFetchTransport(), onEvent: options.onEvent });
}
