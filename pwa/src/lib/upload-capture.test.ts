import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// jsdom's Blob cannot be structured-cloned by fake-indexeddb; Node's can, as a browser's can.
import { File as NodeFile } from 'node:buffer';
import Dexie from 'dexie';
import { UPLOAD_SESSION_IDLE_MS } from '@contract/constants';
import type { MatchingSummary, UploadCapture } from '@contract/matching';
import { UploadQueueDatabase } from './upload-queue-db';
import { enqueueUpload, flushUploadQueue, type QueueEvent } from './upload-queue';
import { idbQueueStore, openUploadQueue } from './upload-queue-idb';
import { flushQueue } from './upload-flush';
import type { QueuedFile, ServerPhoto, UploadOutcome, UploadTransport } from './upload-transport';

const file = (name: string, bytes = 40) => new NodeFile([name.padEnd(bytes, '.')], name, { type: 'image/jpeg', lastModified: 1000 }) as unknown as File;

const summary = (sessionId: string, byCard: number): MatchingSummary => ({ sessionId, photos: byCard, cards: 1, byCard, byName: 0, byStaff: 0, inTray: 0, reported: [] });

/** A server that records the capture list of every attempt and can lose answers or go offline. */
class CaptureServer implements UploadTransport {
  captures: UploadCapture[] = [];
  script = new Map<number, 'offline' | 'lose-answer'>();
  stored: ServerPhoto[] = [];

  async uploadBatch(_albumId: number, files: readonly QueuedFile[], _token: string, capture?: UploadCapture | null): Promise<UploadOutcome> {
    if (!capture) throw new Error('the queue must send a capture list');
    this.captures.push(capture);
    const step = this.script.get(this.captures.length);
    if (step === 'offline') return { kind: 'network' };
    this.stored.push(...files.map((entry) => ({ originalName: entry.name, fileSize: entry.size })));
    if (step === 'lose-answer') return { kind: 'network' };
    return { kind: 'ok', uploaded: files.length, matching: summary(capture.sessionId, this.stored.length), rejected: [] };
  }

  async listPhotos(): Promise<ServerPhoto[]> {
    return [...this.stored];
  }
}

const job = { albumId: 7, albumName: 'Grade 1A', schoolName: 'Acacia Primary', token: 'token-1' };
let name: string;
let db: UploadQueueDatabase;

beforeEach(() => {
  name = `staff-uploads-capture-${Math.random()}`;
  db = new UploadQueueDatabase(name);
});
afterEach(async () => {
  db.close();
  await Dexie.delete(name);
});

describe('capture order in the upload queue', () => {
  it('numbers files in numeric-aware name order and continues the class session across uploads, and a reload keeps it', async () => {
    const first = await enqueueUpload({ ...job, files: [file('IMG_10.JPG'), file('IMG_2.JPG'), file('IMG_1.JPG')] }, db, 1_000);
    const second = await enqueueUpload({ ...job, files: [file('IMG_12.JPG'), file('IMG_11.JPG')] }, db, 2_000);
    expect(second.sessionId).toBe(first.sessionId);
    expect(first.sessionId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);

    // A reload: the page opens the database afresh.
    db.close();
    db = new UploadQueueDatabase(name);
    const files = (await db.files.toArray()).sort((a, b) => a.captureSeq - b.captureSeq);
    expect(files.map((row) => [row.name, row.captureSeq])).toEqual([
      ['IMG_1.JPG', 0],
      ['IMG_2.JPG', 1],
      ['IMG_10.JPG', 2],
      ['IMG_11.JPG', 3],
      ['IMG_12.JPG', 4],
    ]);
    expect((await db.jobs.toArray()).map((row) => row.sessionId)).toEqual([first.sessionId, first.sessionId]);
    expect(await db.sessions.get(job.albumId)).toMatchObject({ sessionId: first.sessionId, nextSeq: 5 });

    // Another class has its own session; the same class after a long break starts a new one.
    expect((await enqueueUpload({ ...job, albumId: 8, files: [file('IMG_1.JPG')] }, db, 3_000)).sessionId).not.toBe(first.sessionId);
    const later = await enqueueUpload({ ...job, files: [file('IMG_20.JPG')] }, db, 2_000 + UPLOAD_SESSION_IDLE_MS);
    expect(later.sessionId).not.toBe(first.sessionId);
    expect((await db.files.where('jobId').equals(later.jobId).first())?.captureSeq).toBe(0);
  });

  it('sends the same session and numbers after going offline and after a lost answer, and keeps the server summary', async () => {
    const files = Array.from({ length: 12 }, (_, i) => file(`DSC_${String(i + 1).padStart(4, '0')}.JPG`, 40 + i));
    const { sessionId } = await enqueueUpload({ ...job, files }, db, 1_000);
    const server = new CaptureServer();
    server.script.set(1, 'offline');
    const events: QueueEvent[] = [];
    expect(await flushUploadQueue({ db, transport: server, onEvent: (event) => events.push(event) })).toBe('offline');

    // The page is reloaded while offline; the next flush sends the same batch with the same numbers.
    db.close();
    db = new UploadQueueDatabase(name);
    server.script.set(3, 'lose-answer');
    expect(await flushUploadQueue({ db, transport: server, onEvent: (event) => events.push(event) })).toBe('offline');
    expect(await flushUploadQueue({ db, transport: server, onEvent: (event) => events.push(event) })).toBe('idle');

    const [offline, sent, lost] = server.captures;
    expect(sent).toEqual(offline);
    expect(offline?.sessionId).toBe(sessionId);
    expect(offline?.files.map((entry) => [entry.name, entry.seq])).toEqual(files.slice(0, 10).map((entry, seq) => [entry.name, seq]));
    expect(lost?.files.map((entry) => entry.seq)).toEqual([10, 11]);
    // The lost batch was found on the server, not sent a third time.
    expect(server.captures).toHaveLength(3);
    expect(server.stored).toHaveLength(12);

    // The last answer the server gave is kept with the class's session (the lost one never arrived).
    expect(events.find((event) => event.type === 'batch')).toMatchObject({ matching: { sessionId, byCard: 10 } });
    expect(events.find((event) => event.type === 'complete')).toMatchObject({ albumId: job.albumId });
    expect((await db.sessions.get(job.albumId))?.summary).toEqual(summary(sessionId, 10));
  });

  it('the service worker sends the same capture list and keeps the summary through plain IndexedDB', async () => {
    const { sessionId } = await enqueueUpload({ ...job, files: [file('IMG_3.JPG'), file('IMG_1.JPG')] }, db, 1_000);
    const raw = await openUploadQueue(indexedDB, name);
    expect(raw).not.toBeNull();
    const server = new CaptureServer();
    expect(await flushQueue(idbQueueStore(raw as IDBDatabase), { transport: server })).toBe('idle');
    raw?.close();
    expect(server.captures).toEqual([{ sessionId, files: [{ name: 'IMG_1.JPG', size: 40, seq: 0 }, { name: 'IMG_3.JPG', size: 40, seq: 1 }] }]);
    expect((await db.sessions.get(job.albumId))?.summary).toEqual(summary(sessionId, 2));
  });

  it('gives jobs queued before capture order a session and numbers when the database is upgraded', async () => {
    db.close();
    await Dexie.delete(name);
    const old = new Dexie(name);
    old.version(1).stores({ jobs: 'id, createdAt', batches: 'id, jobId', files: 'id, jobId, [jobId+batch]' });
    await old.table('jobs').add({ id: 'job-old-1', albumId: 7, albumName: 'A', schoolName: 'S', token: 't', total: 2, batchCount: 1, state: 'active', error: null, createdAt: 1 });
    for (const position of [0, 1]) {
      await old.table('files').add({ id: `job-old-1:${position}`, jobId: 'job-old-1', batch: 0, position, name: `IMG_${position}.JPG`, size: 4, type: 'image/jpeg', lastModified: 1, blob: new NodeFile(['abcd'], 'x'), preview: null, state: 'queued' });
    }
    old.close();
    db = new UploadQueueDatabase(name);
    expect((await db.jobs.get('job-old-1'))?.sessionId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect((await db.files.where('jobId').equals('job-old-1').sortBy('position')).map((row) => row.captureSeq)).toEqual([0, 1]);
  });
});
