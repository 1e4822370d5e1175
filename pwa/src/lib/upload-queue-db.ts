/**
 * The staff upload queue's own IndexedDB database ('staff-uploads'), apart from the parents'
 * database so neither schema waits on the other. It runs in the page and in the service worker
 * (background sync), so it uses nothing from the window scope.
 */
import Dexie, { type Table } from 'dexie';

/** active: waiting or sending; auth: the stored token was refused; failed: a batch was rejected. */
export type UploadJobState = 'active' | 'auth' | 'failed';
/** unknown: sent (or being sent) without a known answer, so the server is asked before a resend. */
export type UploadBatchState = 'pending' | 'unknown' | 'done' | 'failed';
export type UploadFileState = 'queued' | 'done';

export interface UploadJobRow {
  id: string;
  albumId: number;
  albumName: string;
  schoolName: string;
  /** The staff token, so the service worker can upload while no page is open. */
  token: string;
  total: number;
  batchCount: number;
  state: UploadJobState;
  error: string | null;
  createdAt: number;
}

export interface UploadBatchRow {
  id: string;
  jobId: string;
  index: number;
  state: UploadBatchState;
  attempts: number;
  error: string | null;
}

export interface UploadFileRow {
  id: string;
  jobId: string;
  batch: number;
  position: number;
  name: string;
  size: number;
  type: string;
  lastModified: number;
  blob: Blob;
  /** The 200 px watermarked preview, made after the file is safely queued. */
  preview: Blob | null;
  state: UploadFileState;
}

export class UploadQueueDatabase extends Dexie {
  jobs!: Table<UploadJobRow, string>;
  batches!: Table<UploadBatchRow, string>;
  files!: Table<UploadFileRow, string>;

  constructor(name = 'staff-uploads') {
    super(name);
    this.version(1).stores({
      jobs: 'id, createdAt',
      batches: 'id, jobId',
      files: 'id, jobId, [jobId+batch]',
    });
  }
}

let shared: UploadQueueDatabase | null = null;
/** Opened on first use, so importing this module costs nothing until a queue is touched. */
export function uploadDb(): UploadQueueDatabase {
  shared ??= new UploadQueueDatabase();
  return shared;
}
