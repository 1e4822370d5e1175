import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UploadQueueDatabase } from './upload-queue-db';
import { enqueueUpload, flushUploadQueue } from './upload-queue';
import { flushQueue, type QueueEvent } from './upload-flush';
import { idbQueueStore, openUploadQueue } from './upload-queue-idb';
import { FakeServer, job, photos } from './upload-queue.test-helpers';

let name: string;
let page: UploadQueueDatabase;
let server: FakeServer;
let events: QueueEvent[];

/** The service worker's way: open the page's database with plain IndexedDB, send, close. */
async function flushAsWorker() {
  const db = await openUploadQueue(indexedDB, name);
  if (!db) throw new Error('the queue database was not found');
  try {
    return await flushQueue(idbQueueStore(db), { transport: server, onEvent: (event) => events.push(event) });
  } finally {
    db.close();
  }
}

beforeEach(async () => {
  name = `staff-uploads-worker-test-${Math.random()}`;
  page = new UploadQueueDatabase(name);
  await page.open();
  server = new FakeServer();
  events = [];
});
afterEach(async () => {
  await page.delete();
});

describe('the service worker reads the upload queue without Dexie', () => {
  it('sends a queue the page stored, batch after batch, and empties it', async () => {
    await enqueueUpload({ ...job, files: photos(25) }, page);
    expect(await flushAsWorker()).toBe('idle');
    expect(server.calls).toEqual([photos(10).map((f) => f.name), photos(20).slice(10).map((f) => f.name), photos(25).slice(20).map((f) => f.name)]);
    expect(events.filter((e) => e.type === 'batch').map((e) => e.type === 'batch' && e.uploaded)).toEqual([10, 20, 25]);
    expect(events.at(-1)).toMatchObject({ type: 'complete', total: 25, albumName: 'Grade 1A' });
    expect(await page.files.count()).toBe(0);
    expect(await page.batches.count()).toBe(0);
    expect(await page.jobs.count()).toBe(0);
  });

  it('leaves a lost answer for the page to check, which then sends nothing twice', async () => {
    await enqueueUpload({ ...job, files: photos(25) }, page);
    server.script.set(2, 'lose-answer');
    expect(await flushAsWorker()).toBe('offline');
    const states = (await page.batches.toArray()).sort((a, b) => a.index - b.index).map((b) => [b.state, b.attempts]);
    expect(states).toEqual([
      ['done', 1],
      ['unknown', 1],
      ['pending', 0],
    ]);
    const files = await page.files.toCollection().sortBy('position');
    expect(files.filter((f) => f.state === 'done').map((f) => f.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // The original of a sent file is dropped (an empty Blob, which jsdom's clone reports without a
    // size); the others are still there to send.
    expect(files[0]!.blob.size ?? 0).toBe(0);
    expect(await new Response(files[10]!.blob as never).text()).toContain('jpeg-bytes-11');

    // The page's own runner (Dexie) finishes: batch 2 is found on the server, only batch 3 goes out.
    expect(await flushUploadQueue({ db: page, transport: server })).toBe('idle');
    expect(server.calls.map((call) => call.length)).toEqual([10, 10, 5]);
    expect(new Set(server.stored.map((p) => p.originalName)).size).toBe(25);
    expect(await page.jobs.count()).toBe(0);
  });

  it('marks a refused batch failed without holding back the rest, and a refused token on the job', async () => {
    const { jobId } = await enqueueUpload({ ...job, files: photos(15) }, page);
    server.script.set(1, 'reject');
    expect(await flushAsWorker()).toBe('idle');
    expect(server.stored).toHaveLength(5);
    expect(await page.jobs.get(jobId)).toMatchObject({ state: 'failed', error: 'IMG_0001.JPG is damaged or not a readable image' });

    const second = await enqueueUpload({ ...job, albumId: 8, files: photos(3) }, page);
    server.script.set(3, 'unauthorised');
    expect(await flushAsWorker()).toBe('idle');
    expect(await page.jobs.get(second.jobId)).toMatchObject({ state: 'auth', error: 'Not logged in. Please log in and try again.' });
    expect((await page.batches.where('jobId').equals(second.jobId).first())?.state).toBe('pending');
  });

  it('marks files the server refused one by one failed with their reason, and keeps the job for the page to show', async () => {
    const { jobId } = await enqueueUpload({ ...job, files: photos(4) }, page);
    server.refuse.set('IMG_0002.JPG', 'IMG_0002.JPG is not an image');
    expect(await flushAsWorker()).toBe('idle');
    expect(server.stored.map((p) => p.originalName)).toEqual(['IMG_0001.JPG', 'IMG_0003.JPG', 'IMG_0004.JPG']);
    const files = await page.files.where('jobId').equals(jobId).sortBy('position');
    expect(files.map((file) => [file.state, file.error ?? null])).toEqual([
      ['done', null],
      ['failed', 'IMG_0002.JPG is not an image'],
      ['done', null],
      ['done', null],
    ]);
    expect(await page.jobs.get(jobId)).toMatchObject({ state: 'failed', error: 'IMG_0002.JPG: IMG_0002.JPG is not an image' });
    expect(events.at(-1)).toMatchObject({ type: 'refused', stored: 3, files: [{ name: 'IMG_0002.JPG', reason: 'IMG_0002.JPG is not an image' }] });
    // The page's runner sends nothing again.
    expect(await flushUploadQueue({ db: page, transport: server })).toBe('idle');
    expect(server.calls).toHaveLength(1);
  });

  it('finds no queue on a device where staff never uploaded, and creates none', async () => {
    const absent = `never-created-${Math.random()}`;
    expect(await openUploadQueue(indexedDB, absent)).toBeNull();
    expect((await indexedDB.databases()).map((db) => db.name)).not.toContain(absent);
  });
});
