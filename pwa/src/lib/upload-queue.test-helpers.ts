// jsdom's Blob cannot be structured-cloned by fake-indexeddb; Node's can, as a browser's can.
import { File as NodeFile } from 'node:buffer';
import type { QueuedFile, ServerPhoto, UploadOutcome, UploadTransport } from './upload-transport';

/** A small JPEG-like file named IMG_000i.JPG, different in content and size for each i. */
export const photo = (i: number) => new NodeFile([`jpeg-bytes-${i}`.padEnd(40 + i, '.')], `IMG_${String(i).padStart(4, '0')}.JPG`, { type: 'image/jpeg', lastModified: 1000 + i }) as unknown as File;
/** Photos 1..n. */
export const photos = (n: number) => Array.from({ length: n }, (_, i) => photo(i + 1));

/** A server that stores what it receives and can lose the answer or refuse on demand. */
export class FakeServer implements UploadTransport {
  stored: ServerPhoto[] = [];
  calls: string[][] = [];
  tokens: string[] = [];
  /** Per upload call (1-based): store then lose the answer, refuse without storing, or go offline. */
  script = new Map<number, 'lose-answer' | 'offline' | 'server-error' | 'reject' | 'unauthorised'>();
  listOffline = false;
  /** Files the server refuses one by one, by name, with the reason (as a 207, or a 400 naming them all). */
  refuse = new Map<string, string>();

  async uploadBatch(_albumId: number, files: readonly QueuedFile[], token: string): Promise<UploadOutcome> {
    this.calls.push(files.map((file) => file.name));
    this.tokens.push(token);
    const step = this.script.get(this.calls.length);
    if (step === 'offline') return { kind: 'network' };
    if (step === 'server-error') return { kind: 'retry', message: 'Upload failed' };
    if (step === 'reject') return { kind: 'rejected', message: `${files[0]!.name} is damaged or not a readable image` };
    if (step === 'unauthorised') return { kind: 'auth', message: 'Authentication required' };
    const rejected = files.filter((file) => this.refuse.has(file.name)).map((file) => ({ name: file.name, reason: this.refuse.get(file.name)! }));
    if (rejected.length === files.length) return { kind: 'rejected', message: rejected[0]!.reason, files: rejected };
    const kept = files.filter((file) => !this.refuse.has(file.name));
    this.stored.push(...kept.map((file) => ({ originalName: file.name, fileSize: file.size })));
    if (step === 'lose-answer') return { kind: 'network' };
    return { kind: 'ok', uploaded: kept.length, rejected };
  }

  async listPhotos(): Promise<ServerPhoto[] | { kind: 'network' }> {
    return this.listOffline ? { kind: 'network' } : [...this.stored];
  }
}

/** The upload job the queue tests enqueue (files added per test). */
export const job = { albumId: 7, albumName: 'Grade 1A', schoolName: 'Acacia Primary', token: 'token-1' };
