import { useLiveQuery } from 'dexie-react-hooks';
import { uploadDb, type UploadBatchRow, type UploadFileRow, type UploadJobRow } from '../../../lib/upload-queue-db';

export interface QueueView {
  job: UploadJobRow;
  files: UploadFileRow[];
  batches: Map<number, UploadBatchRow>;
  done: number;
  /** Files the server refused (each with its reason): never sent again, shown until the job is discarded. */
  refused: UploadFileRow[];
}

/** What is waiting in the upload queue, live (IndexedDB changes from any tab or the worker). */
export function useQueue(): QueueView[] | undefined {
  return useLiveQuery(async () => {
    const db = uploadDb();
    const jobs = await db.jobs.orderBy('createdAt').toArray();
    return Promise.all(
      jobs.map(async (job) => {
        const files = await db.files.where('jobId').equals(job.id).sortBy('position');
        const batches = new Map((await db.batches.where('jobId').equals(job.id).toArray()).map((batch) => [batch.index, batch] as const));
        return { job, files, batches, done: files.filter((file) => file.state === 'done').length, refused: files.filter((file) => file.state === 'failed') };
      }),
    );
  }, []);
}
