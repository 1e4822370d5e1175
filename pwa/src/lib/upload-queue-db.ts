/**
 * The staff upload queue's own IndexedDB database ('staff-uploads'), apart from the parents'
 * database so neither schema waits on the other. It runs in the page and in the service worker
 * (background sync), so it uses nothing from the window scope.
 */
import Dexie, { type Table } from 'dexie';
import type { MatchingSummary } from '@contract/matching';

/** active: waiting or sending; auth: the stored token was refused; failed: a batch was rejected, or the server refused some files. */
export type UploadJobState = 'active' | 'auth' | 'failed';
/** unknown: sent (or being sent) without a known answer, so the server is asked before a resend. */
export type UploadBatchState = 'pending' | 'unknown' | 'done' | 'failed';
/** failed: the server refused this one file (not an image, corrupt, too large): it is never sent again. */
export type UploadFileState = 'queued' | 'done' | 'failed';

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
  /** The upload session the job belongs to: the server matches a session's photos as one shoot. */
  sessionId: string;
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
  /** The file's place in the session's capture order, fixed when it was queued so a reload or a resend keeps it. */
  captureSeq: number;
  /** Why the server refused the file (state failed), in its own words; absent otherwise. */
  error?: string | null;
}

/** One class's current upload session: later photos for the class continue it while the shoot goes on. */
export interface UploadSessionRow {
  albumId: number;
  sessionId: string;
  /** The capture number the next queued photo gets. */
  nextSeq: number;
  updatedAt: number;
  /** The server's latest word on the session's matching (cards, names, tray); null before any answer or without a roster. */
  summary: MatchingSummary | null;
}

export class UploadQueueDatabase extends Dexie {
  jobs!: Table<UploadJobRow, string>;
  batches!: Table<UploadBatchRow, string>;
  files!: Table<UploadFileRow, string>;
  sessions!: Table<UploadSessionRow, number>;

  constructor(name = 'staff-uploads') {
    super(name);
    this.version(1).stores({
      jobs: 'id, createdAt',
      batches: 'id, jobId',
      files: 'id, jobId, [jobId+batch]',
    });
    // Capture order for matching at the shoot: jobs queued before it each become their own session, in queue order.
    this.version(2)
      .stores({ sessions: 'albumId' })
      .upgrade(async (tx) => {
        await tx.table<UploadJobRow, string>('jobs').toCollection().modify((job) => {
          job.sessionId ??= job.id.replace(/[^A-Za-z0-9_-]/g, '').padEnd(8, '0');
        });
        await tx.table<UploadFileRow, string>('files').toCollection().modify((file) => {
          file.captureSeq ??= file.position;
        });
      });
  }
}

let shared: UploadQueueDatabase | null = null;
/** Opened on first use, so importing this module costs nothing until a queue is touched. */
export function uploadDb(): UploadQueueDatabase {
  shared ??= new UploadQueueDatabase();
  return shared;
}
