import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeHold } from './backup-hold';
import { createFileStorage } from './file-storage';

/**
 * A backup's hold ends while the server is moving removed objects into the held folder
 * (docs/operations.md, "Backup and restore"). On a real file system, many rounds of removals
 * racing the release: every removed object is gone afterwards, from the store and from the
 * scratch folder. Before the moves were retried, a folder removed by the release between the
 * server's mkdir and its rename left objects in the store or stranded in the held folder.
 */
describe('removals racing the end of a backup hold', () => {
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'hold-race-'));
  });
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('leaves nothing behind in the store or the scratch folder', async () => {
    const store = createFileStorage(root);
    await store.ensureReady();
    const kinds = ['originals', 'previews', 'thumbnails'];
    const problems: string[] = [];
    for (let round = 0; round < 150; round++) {
      const keys = Array.from({ length: 40 }, (_, i) => `${kinds[i % 3]}/${String(round % 50).padStart(2, '0')}/${String(i).padStart(2, '0')}/r${round}i${i}.jpg`);
      for (const key of keys) await store.putBuffer(key, Buffer.from('x'), { contentType: 'image/jpeg' });
      const hold = await takeHold(store.scratchDir);
      // Ten photos' removals (four objects each), started at random moments around the release.
      const removals = Array.from({ length: 10 }, (_, photo) => keys.slice(photo * 4, photo * 4 + 4)).map(async (photoKeys) => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 8));
        await store.remove(photoKeys).catch((err: NodeJS.ErrnoException) => problems.push(`round ${round}: remove threw ${err.code ?? String(err)}`));
      });
      await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 4));
      await hold.release();
      await Promise.all(removals);
      const stranded = (await fs.readdir(store.scratchDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
      if (stranded.length > 0) problems.push(`round ${round}: ${stranded.length} left in the held folder`);
      for (const key of keys) if (await store.stat(key)) problems.push(`round ${round}: ${key} still in the store`);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
