import { describe, expect, it } from 'vitest';
import type { UploadedFile } from '../http/multipart';
import type { PreparedPhoto, StoredPhoto } from './media.types';
import { createUploadPipeline, PIPELINE_JOBS } from './upload-pipeline';
import { MEDIA_JOBS } from './media.service';
import { badRequest } from '../http/errors';

const file = (name: string): UploadedFile => ({ path: `/tmp/${name}`, originalName: name, size: 1 });

function fakeMedia(failOn?: string, error: (name: string) => Error = (name) => new Error(`bad ${name}`)) {
  const log: string[] = [];
  let active = 0;
  let peak = 0;
  return {
    log,
    peak: () => peak,
    async prepareUpload(upload: UploadedFile): Promise<PreparedPhoto> {
      active += 1;
      peak = Math.max(peak, active);
      log.push(`prepare ${upload.originalName}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
      active -= 1;
      if (upload.originalName === failOn) throw error(upload.originalName);
      return {
        stored: { storageKey: upload.originalName } as StoredPhoto,
        takenAt: null,
        findCardText: async () => null,
        commit: async () => ({ storageKey: upload.originalName }) as StoredPhoto,
        discard: async () => {
          log.push(`discard ${upload.originalName}`);
        },
      };
    },
  };
}

describe('createUploadPipeline', () => {
  it('prepares files one at a time in arrival order', async () => {
    const media = fakeMedia();
    const pipeline = createUploadPipeline(media, 1);
    const files = ['a', 'b', 'c'].map(file);
    for (const f of files) void pipeline.add(f);
    const prepared = await Promise.all(files.map((f) => pipeline.prepared(f)));
    expect(prepared.map((p) => p.stored.storageKey)).toEqual(['a', 'b', 'c']);
    expect(media.peak()).toBe(1);
    await pipeline.discard();
    expect(media.log).toEqual(['prepare a', 'prepare b', 'prepare c', 'discard a', 'discard b', 'discard c']);
  });

  it("a file's own fault (a corrupt file) fails that file alone: the ones after it are still prepared", async () => {
    const media = fakeMedia('b', (name) => badRequest(`${name} is corrupt`, undefined, 'FILE_CORRUPT'));
    const pipeline = createUploadPipeline(media, 1);
    for (const name of ['a', 'b', 'c']) void pipeline.add(file(name));
    await expect(pipeline.prepared(file('b'))).rejects.toThrow('b is corrupt');
    expect((await pipeline.prepared(file('c'))).stored.storageKey).toBe('c');
    await pipeline.discard();
    expect(media.log).toEqual(['prepare a', 'prepare b', 'prepare c', 'discard a', 'discard c']);
  });

  it('reports the failing file and, after a failure that is not the file\'s own, skips decoding the ones after it', async () => {
    const media = fakeMedia('b');
    const pipeline = createUploadPipeline(media, 1);
    for (const name of ['a', 'b', 'c']) void pipeline.add(file(name));
    await expect(pipeline.prepared(file('b'))).rejects.toThrow('bad b');
    await expect(pipeline.prepared(file('c'))).rejects.toThrow('skipped');
    await pipeline.discard();
    expect(media.log).toEqual(['prepare a', 'prepare b', 'discard a']);
  });

  it('by default prepares as many files at once as the media service decodes, started in arrival order', async () => {
    const media = fakeMedia();
    const pipeline = createUploadPipeline(media);
    const files = ['a', 'b', 'c', 'd', 'e'].map(file);
    for (const f of files) void pipeline.add(f);
    const prepared = await Promise.all(files.map((f) => pipeline.prepared(f)));
    expect(prepared.map((p) => p.stored.storageKey)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(media.peak()).toBe(PIPELINE_JOBS);
    expect(PIPELINE_JOBS).toBe(MEDIA_JOBS);
    expect(media.log.slice(0, 5)).toEqual(['prepare a', 'prepare b', 'prepare c', 'prepare d', 'prepare e']);
    await pipeline.discard();
  });

  it('two at a time: a failure skips the files not yet started; the one already running is kept and discarded', async () => {
    const media = fakeMedia('a');
    const pipeline = createUploadPipeline(media, 2);
    for (const name of ['a', 'b', 'c', 'd']) void pipeline.add(file(name));
    await expect(pipeline.prepared(file('a'))).rejects.toThrow('bad a');
    expect((await pipeline.prepared(file('b'))).stored.storageKey).toBe('b');
    await expect(pipeline.prepared(file('c'))).rejects.toThrow('skipped');
    await expect(pipeline.prepared(file('d'))).rejects.toThrow('skipped');
    await pipeline.discard();
    expect(media.log).toEqual(['prepare a', 'prepare b', 'discard b']);
  });

  it('queues a file that was never announced', async () => {
    const pipeline = createUploadPipeline(fakeMedia());
    expect((await pipeline.prepared(file('late'))).stored.storageKey).toBe('late');
  });
});
