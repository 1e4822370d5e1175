/**
 * The staff upload queue read and written with plain IndexedDB, for the service worker's
 * background sync: the same 'staff-uploads' database the page keeps through Dexie
 * (upload-queue-db.ts), without shipping Dexie in the worker every parent's phone downloads. The
 * page creates the database; a worker that finds none has nothing to send and creates nothing.
 * Worker-safe: no window, document or local storage here.
 */
import type { UploadBatchRow, UploadFileRow, UploadJobRow, UploadSessionRow } from './upload-queue-db';
import { serverName, type UploadQueueStore } from './upload-flush';

export const UPLOAD_QUEUE_DB_NAME = 'staff-uploads';

const JOBS = 'jobs';
const BATCHES = 'batches';
const FILES = 'files';
const SESSIONS = 'sessions';
/** Dexie's names for the indexes declared in upload-queue-db.ts. */
const BY_CREATED = 'createdAt';
const BY_JOB = 'jobId';
const BY_JOB_BATCH = '[jobId+batch]';

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function finished(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/**
 * Opens the queue's database as the page left it, or answers null when there is none (no staff
 * upload ever happened on this device): opening it must not create an empty one that the page's
 * Dexie would then have to upgrade.
 */
export function openUploadQueue(factory: IDBFactory = indexedDB, name = UPLOAD_QUEUE_DB_NAME): Promise<IDBDatabase | null> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name);
    let created = false;
    request.onupgradeneeded = () => {
      created = true;
      request.transaction?.abort();
    };
    request.onsuccess = () => {
      const db = request.result;
      if (![JOBS, BATCHES, FILES].every((store) => db.objectStoreNames.contains(store))) {
        db.close();
        resolve(null);
        return;
      }
      // A newer page version upgrading the schema must not wait for this worker.
      db.onversionchange = () => db.close();
      resolve(db);
    };
    request.onerror = () => {
      if (created) resolve(null);
      else reject(request.error ?? new Error('Could not open the upload queue'));
    };
  });
}

/** The queue's store over an open database (see openUploadQueue). */
export function idbQueueStore(db: IDBDatabase): UploadQueueStore {
  const read = async <T>(store: string, run: (os: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const tx = db.transaction(store, 'readonly');
    return done(run(tx.objectStore(store)));
  };

  /** Applies `change` to each row found under `keys` in one readwrite transaction. */
  const modify = async <Row>(store: string, keys: readonly IDBValidKey[], change: (row: Row) => Row): Promise<void> => {
    const tx = db.transaction(store, 'readwrite');
    const os = tx.objectStore(store);
    for (const key of keys) {
      const request = os.get(key);
      request.onsuccess = () => {
        if (request.result !== undefined) os.put(change(request.result as Row));
      };
    }
    await finished(tx);
  };

  const filesOfJob = (jobId: string) => read<UploadFileRow[]>(FILES, (os) => os.index(BY_JOB).getAll(jobId));
  const batchesOfJob = (jobId: string) => read<UploadBatchRow[]>(BATCHES, (os) => os.index(BY_JOB).getAll(jobId));

  return {
    async nextActiveJob(skip) {
      const jobs = await read<UploadJobRow[]>(JOBS, (os) => os.index(BY_CREATED).getAll());
      return jobs.find((job) => job.state === 'active' && !skip.has(job.id));
    },
    async batchesOf(jobId) {
      return (await batchesOfJob(jobId)).sort((a, b) => a.index - b.index);
    },
    async queuedFiles(jobId, batch) {
      const files = await read<UploadFileRow[]>(FILES, (os) => os.index(BY_JOB_BATCH).getAll([jobId, batch]));
      return files.filter((file) => file.state === 'queued').sort((a, b) => a.position - b.position);
    },
    updateBatch: (id, changes) => modify<UploadBatchRow>(BATCHES, [id], (row) => ({ ...row, ...changes })),
    updateJob: (id, changes) => modify<UploadJobRow>(JOBS, [id], (row) => ({ ...row, ...changes })),
    markFilesDone: (ids) => modify<UploadFileRow>(FILES, ids, (row) => ({ ...row, state: 'done', blob: new Blob([]) })),
    async markFilesFailed(failures) {
      const reasons = new Map(failures.map(({ id, error }) => [id, error] as const));
      await modify<UploadFileRow>(FILES, [...reasons.keys()], (row) => ({ ...row, state: 'failed', error: reasons.get(row.id) ?? null, blob: new Blob([]) }));
    },
    async refusedFiles(jobId) {
      return (await filesOfJob(jobId))
        .filter((file) => file.state === 'failed')
        .sort((a, b) => a.position - b.position)
        .map((file) => ({ name: serverName(file.name), reason: file.error ?? '' }));
    },
    async countDoneFiles(jobId) {
      return (await filesOfJob(jobId)).filter((file) => file.state === 'done').length;
    },
    async firstFailedBatch(jobId) {
      return (await batchesOfJob(jobId)).find((batch) => batch.state === 'failed');
    },
    async discardJob(jobId) {
      const tx = db.transaction([JOBS, BATCHES, FILES], 'readwrite');
      for (const store of [FILES, BATCHES]) {
        const index = tx.objectStore(store).index(BY_JOB);
        const keys = index.getAllKeys(jobId);
        keys.onsuccess = () => {
          for (const key of keys.result) tx.objectStore(store).delete(key);
        };
      }
      tx.objectStore(JOBS).delete(jobId);
      await finished(tx);
    },
    async saveMatching(albumId, sessionId, summary) {
      // A database from before matching has no sessions store: there is no session to keep it with.
      if (!db.objectStoreNames.contains(SESSIONS)) return;
      await modify<UploadSessionRow>(SESSIONS, [albumId], (row) => (row.sessionId === sessionId ? { ...row, summary } : row));
    },
  };
}
