import { File as NodeFile } from 'node:buffer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UploadQueueDatabase } from './upload-queue-db';
import { batchCountFor, discardJob, enqueueUpload, flushUploadQueue, refreshQueueToken, retryJob, serverName, type QueueEvent } from './upload-queue';
import { classifyStatus, createFetchTransport, uploadErrorMessage } from './upload-transport';
import { FakeServer, job, photos } from './upload-queue.test-helpers';

let db: UploadQueueDatabase;
let server: FakeServer;
let events: QueueEvent[];
const flush = () => flushUploadQueue({ db, transport: server, onEvent: (event) => events.push(event) });

beforeEach(() => {
  db = new UploadQueueDatabase(`staff-uploads-test-${Math.random()}`);
  server = new FakeServer();
  events = [];
});
afterEach(async () => {
  await db.delete();
});

describe('enqueue', () => {
  it('stores every file with its album and splits them into batches of 10', async () => {
    const { jobId, queued } = await enqueueUpload({ ...job, files: photos(25) }, db);
    expect(queued).toBe(25);
    const stored = await db.jobs.get(jobId);
    expect(stored).toMatchObject({ albumId: 7, total: 25, batchCount: 3, state: 'active', token: 'token-1' });
    const files = await db.files.where('jobId').equals(jobId).sortBy('position');
    expect(files.map((file) => file.batch)).toEqual([...Array(10).fill(0), ...Array(10).fill(1), ...Array(5).fill(2)]);
    expect(files[0]).toMatchObject({ name: 'IMG_0001.JPG', type: 'image/jpeg', state: 'queued' });
    expect(await new Response(files[0]!.blob as never).text()).toContain('jpeg-bytes-1');
    expect(await db.batches.where('jobId').equals(jobId).count()).toBe(3);
  });

  it('does not queue a file twice for the same class while it is still waiting', async () => {
    await enqueueUpload({ ...job, files: photos(3) }, db);
    const second = await enqueueUpload({ ...job, files: photos(5) }, db);
    expect(second).toMatchObject({ queued: 2, skipped: 3 });
  });

  it('counts batches', () => {
    expect([batchCountFor(1), batchCountFor(10), batchCountFor(11), batchCountFor(500)]).toEqual([1, 1, 2, 50]);
  });
});

describe('flush', () => {
  it('sends batch after batch, reports each, and empties the queue when done', async () => {
    await enqueueUpload({ ...job, files: photos(25) }, db);
    expect(await flush()).toBe('idle');
    expect(server.calls.map((call) => call.length)).toEqual([10, 10, 5]);
    expect(server.stored).toHaveLength(25);
    expect(events.filter((e) => e.type === 'batch').map((e) => e.type === 'batch' && [e.index + 1, e.batchCount, e.uploaded])).toEqual([
      [1, 3, 10],
      [2, 3, 20],
      [3, 3, 25],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'complete', total: 25, albumName: 'Grade 1A' });
    expect(await db.files.count()).toBe(0);
    expect(await db.jobs.count()).toBe(0);
  });

  it('stops when offline and resumes where it stopped', async () => {
    await enqueueUpload({ ...job, files: photos(25) }, db);
    server.script.set(2, 'offline');
    expect(await flush()).toBe('offline');
    expect(server.stored).toHaveLength(10);
    expect(await db.files.filter((file) => file.state === 'queued').count()).toBe(15);

    expect(await flush()).toBe('idle');
    expect(server.stored.map((p) => p.originalName)).toEqual(photos(25).map((file) => file.name));
  });

  it('never uploads a file twice when the answer to a stored batch was lost', async () => {
    await enqueueUpload({ ...job, files: photos(25) }, db);
    server.script.set(2, 'lose-answer');
    expect(await flush()).toBe('offline');
    expect(server.stored).toHaveLength(20);
    const batch = await db.batches.where('jobId').anyOf(await db.jobs.toCollection().primaryKeys()).filter((b) => b.index === 1).first();
    expect(batch?.state).toBe('unknown');

    expect(await flush()).toBe('idle');
    expect(server.stored).toHaveLength(25);
    expect(new Set(server.stored.map((p) => p.originalName)).size).toBe(25);
    // Batch 2 was found on the server, so only batch 3 was sent again.
    expect(server.calls.map((call) => call.length)).toEqual([10, 10, 5]);
  });

  it('sends a batch again when the lost attempt was not stored', async () => {
    await enqueueUpload({ ...job, files: photos(12) }, db);
    server.script.set(1, 'offline');
    expect(await flush()).toBe('offline');
    expect(await flush()).toBe('idle');
    expect(server.calls.map((call) => call.length)).toEqual([10, 10, 2]);
    expect(server.stored).toHaveLength(12);
  });

  it('waits without sending when the check itself cannot reach the server', async () => {
    await enqueueUpload({ ...job, files: photos(5) }, db);
    server.script.set(1, 'offline');
    await flush();
    server.listOffline = true;
    expect(await flush()).toBe('offline');
    expect(server.calls).toHaveLength(1);
  });

  it('keeps a batch the server could not take and retries it later', async () => {
    await enqueueUpload({ ...job, files: photos(5) }, db);
    server.script.set(1, 'server-error');
    expect(await flush()).toBe('retry-later');
    expect(await flush()).toBe('idle');
    expect(server.stored).toHaveLength(5);
  });

  it('marks a refused batch failed, carries on with the rest, and can retry it', async () => {
    const { jobId } = await enqueueUpload({ ...job, files: photos(25) }, db);
    server.script.set(1, 'reject');
    expect(await flush()).toBe('idle');
    expect(events).toContainEqual({ type: 'failed', jobId, message: 'IMG_0001.JPG is damaged or not a readable image' });
    expect(server.stored).toHaveLength(15);
    expect((await db.jobs.get(jobId))?.state).toBe('failed');

    await retryJob(jobId, db);
    expect(await flush()).toBe('idle');
    expect(server.stored).toHaveLength(25);
    expect(await db.jobs.count()).toBe(0);
  });

  it('pauses on a refused token and resumes with a new sign-in', async () => {
    const { jobId } = await enqueueUpload({ ...job, files: photos(3) }, db);
    server.script.set(1, 'unauthorised');
    await flush();
    expect(await db.jobs.get(jobId)).toMatchObject({ state: 'auth', error: 'Not logged in. Please log in and try again.' });
    await refreshQueueToken('token-2', db);
    await flush();
    expect(server.tokens).toEqual(['token-1', 'token-2']);
    expect(server.stored).toHaveLength(3);
  });

  it('lets the photographer discard a job', async () => {
    const { jobId } = await enqueueUpload({ ...job, files: photos(3) }, db);
    await discardJob(jobId, db);
    expect(await db.files.count()).toBe(0);
    expect(await flush()).toBe('idle');
    expect(server.calls).toHaveLength(0);
  });

  it('runs one flush at a time', async () => {
    await enqueueUpload({ ...job, files: photos(3) }, db);
    const [first, second] = await Promise.all([flush(), flush()]);
    expect([first, second].sort()).toEqual(['busy', 'idle']);
    expect(server.stored).toHaveLength(3);
  });
});

describe('files the server refuses one by one', () => {
  const notAnImage = 'IMG_0003.JPG is not an image the server can read';
  const tooLarge = 'IMG_0011.JPG is larger than 10 MB';

  it('marks the refused files of a 207 failed with their reason, the rest done, and never sends either again', async () => {
    const { jobId } = await enqueueUpload({ ...job, files: photos(12) }, db);
    server.refuse.set('IMG_0003.JPG', notAnImage).set('IMG_0011.JPG', tooLarge);
    expect(await flush()).toBe('idle');
    expect(server.calls.map((call) => call.length)).toEqual([10, 2]);
    expect(server.stored).toHaveLength(10);
    const files = await db.files.where('jobId').equals(jobId).sortBy('position');
    expect(files.filter((file) => file.state === 'failed').map((file) => [file.name, file.error])).toEqual([
      ['IMG_0003.JPG', notAnImage],
      ['IMG_0011.JPG', tooLarge],
    ]);
    expect(files.filter((file) => file.state === 'done')).toHaveLength(10);
    // A refused file's original is dropped: it is never sent again.
    expect(files[2]!.blob.size ?? 0).toBe(0);
    expect(await db.jobs.get(jobId)).toMatchObject({ state: 'failed', error: `IMG_0003.JPG: ${notAnImage}` });
    expect(events.filter((event) => event.type === 'complete')).toEqual([]);
    expect(events.at(-1)).toEqual({
      type: 'refused',
      jobId,
      stored: 10,
      albumName: 'Grade 1A',
      albumId: 7,
      matching: null,
      files: [
        { name: 'IMG_0003.JPG', reason: notAnImage },
        { name: 'IMG_0011.JPG', reason: tooLarge },
      ],
    });
    // Retry and later flushes send nothing: the stored files are done, the refused would fail again.
    await retryJob(jobId, db);
    expect(await flush()).toBe('idle');
    expect(server.calls).toHaveLength(2);
    expect(server.stored).toHaveLength(10);
    // The job stays, with its refused files to read, until the photographer discards it.
    expect((await db.jobs.get(jobId))?.state).toBe('failed');
    await discardJob(jobId, db);
    expect(await db.files.count()).toBe(0);
  });

  it('fails each file of a batch refused as a whole (400 naming them all) and carries on with the next batch', async () => {
    const { jobId } = await enqueueUpload({ ...job, files: photos(12) }, db);
    server.refuse.set('IMG_0011.JPG', tooLarge).set('IMG_0012.JPG', 'IMG_0012.JPG is damaged');
    expect(await flush()).toBe('idle');
    expect(server.calls.map((call) => call.length)).toEqual([10, 2]);
    const batches = (await db.batches.where('jobId').equals(jobId).sortBy('index')).map((batch) => batch.state);
    // Nothing is left to send in the second batch: it is not a failed batch that Retry would send.
    expect(batches).toEqual(['done', 'done']);
    const failed = await db.files.where('jobId').equals(jobId).filter((file) => file.state === 'failed').toArray();
    expect(failed.map((file) => file.name).sort()).toEqual(['IMG_0011.JPG', 'IMG_0012.JPG']);
    expect(events.at(-1)).toMatchObject({ type: 'refused', stored: 10, files: [{ name: 'IMG_0011.JPG' }, { name: 'IMG_0012.JPG' }] });
    await retryJob(jobId, db);
    await flush();
    expect(server.calls).toHaveLength(2);
  });

  it('refuses only the file named when two files of a batch share a name', async () => {
    const twin = new NodeFile(['other-bytes-of-the-same-name'], 'IMG_0001.JPG', { type: 'image/jpeg', lastModified: 5 }) as unknown as File;
    const { jobId } = await enqueueUpload({ ...job, files: [...photos(2), twin] }, db);
    server.uploadBatch = async (_albumId, files) => {
      server.calls.push(files.map((file) => file.name));
      server.stored.push(...files.slice(1).map((file) => ({ originalName: file.name, fileSize: file.size })));
      return { kind: 'ok', uploaded: files.length - 1, rejected: [{ name: 'IMG_0001.JPG', reason: notAnImage }] };
    };
    await flush();
    const states = (await db.files.where('jobId').equals(jobId).sortBy('position')).map((file) => [file.name, file.state]);
    expect(states.filter(([, state]) => state === 'failed')).toHaveLength(1);
    expect(states.filter(([, state]) => state === 'done')).toHaveLength(2);
  });

  it('after a lost answer, sends again only what the server does not have, and a refused file is refused again', async () => {
    const { jobId } = await enqueueUpload({ ...job, files: photos(5) }, db);
    server.refuse.set('IMG_0002.JPG', notAnImage);
    server.script.set(1, 'lose-answer');
    expect(await flush()).toBe('offline');
    expect(server.stored).toHaveLength(4);
    expect(await flush()).toBe('idle');
    // The four stored ones were found on the server; only the refused one went out again, and failed.
    expect(server.calls).toEqual([photos(5).map((file) => file.name), ['IMG_0002.JPG']]);
    expect(server.stored).toHaveLength(4);
    const failed = await db.files.where('jobId').equals(jobId).filter((file) => file.state === 'failed').toArray();
    expect(failed.map((file) => [file.name, file.error])).toEqual([['IMG_0002.JPG', notAnImage]]);
  });

  it('queues a refused file again when the photographer adds it again (a fixed copy)', async () => {
    await enqueueUpload({ ...job, files: photos(2) }, db);
    server.refuse.set('IMG_0002.JPG', notAnImage);
    await flush();
    expect(await enqueueUpload({ ...job, files: [photos(2)[1]!] }, db)).toMatchObject({ queued: 1, skipped: 0 });
  });
});

describe('the fetch transport reads per-file refusals', () => {
  const answer = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const files = [
    { name: 'IMG_0001.JPG', size: 3, blob: new Blob(['abc']) },
    { name: 'IMG_0007.HEIC', size: 3, blob: new Blob(['abc']) },
  ];

  it('reads a 201, a 207 with its refused files and a 400 that names every file', async () => {
    const ok = await createFetchTransport(answer(201, { message: '2 uploaded', uploaded: 2, photos: [], matching: null, rejected: [] })).uploadBatch(7, files, 't');
    expect(ok).toEqual({ kind: 'ok', uploaded: 2, matching: null, rejected: [] });
    const partial = await createFetchTransport(
      answer(207, { message: '1 uploaded', uploaded: 1, photos: [], matching: null, rejected: [{ name: 'IMG_0007.HEIC', reason: 'IMG_0007.HEIC is not an image' }] }),
    ).uploadBatch(7, files, 't');
    expect(partial).toEqual({ kind: 'ok', uploaded: 1, matching: null, rejected: [{ name: 'IMG_0007.HEIC', reason: 'IMG_0007.HEIC is not an image' }] });
    const refused = await createFetchTransport(
      answer(400, {
        message: 'IMG_0001.JPG is not an image',
        code: 'INVALID_IMAGE',
        rejected: [
          { name: 'IMG_0001.JPG', reason: 'IMG_0001.JPG is not an image' },
          { name: 'IMG_0007.HEIC', reason: 'IMG_0007.HEIC is not an image' },
        ],
      }),
    ).uploadBatch(7, files, 't');
    expect(refused).toMatchObject({ kind: 'rejected', message: 'IMG_0001.JPG is not an image', files: [{ name: 'IMG_0001.JPG' }, { name: 'IMG_0007.HEIC' }] });
  });

  it('keeps a plain 400 a refused batch, and treats a 207 it cannot read as a lost answer', async () => {
    expect(await createFetchTransport(answer(400, { message: 'Album not found' })).uploadBatch(7, files, 't')).toEqual({ kind: 'rejected', message: 'Album not found' });
    expect(await createFetchTransport(answer(207, { message: 'odd' })).uploadBatch(7, files, 't')).toEqual({ kind: 'network' });
  });
});

describe('transport helpers', () => {
  it('uses the server message, else the spec fallbacks', () => {
    expect(uploadErrorMessage(400, '{"message":"IMG_1.JPG exceeds the 10MB limit"}')).toBe('IMG_1.JPG exceeds the 10MB limit');
    expect(uploadErrorMessage(500, '{}')).toBe('Upload failed');
    expect(uploadErrorMessage(502, '<html>Bad gateway</html>')).toBe('Upload failed with status 502');
  });

  it('classifies answers', () => {
    expect(classifyStatus(401, 'x').kind).toBe('auth');
    expect(classifyStatus(503, 'x').kind).toBe('retry');
    expect(classifyStatus(429, 'x').kind).toBe('retry');
    expect(classifyStatus(413, 'x').kind).toBe('rejected');
  });

  it('compares names the way the server stores them', () => {
    expect(serverName('C:\\shoot\\IMG_0001.JPG')).toBe('IMG_0001.JPG');
    expect(serverName(' a/b/IMG_2.jpg ')).toBe('IMG_2.jpg');
  });
});
