import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger';
import { findCardText, type ScanImage } from './card-scan';

/**
 * The card scan off the event loop (docs/images.md, "Cards at the shoot"): one worker thread,
 * started on the first scan, reads the photos' grey copies one after another while the event
 * loop goes on with the decodes' JavaScript and every other request. One thread is enough: the
 * scan costs tens of milliseconds a photo against the hundreds libvips spends decoding it, and the
 * two cores of a small server are already shared by two decodes.
 */

/** The event loop to the worker: a scan to start, or the answer about the text it last read. */
export type ScanRequest =
  | { kind: 'scan'; id: number; data: Uint8Array; width: number; height: number; channels: number }
  | { kind: 'next'; id: number }
  | { kind: 'stop'; id: number };

/** The worker to the event loop: a text read (it waits for next or stop), the end, or its error. */
export type ScanReply = { kind: 'read'; id: number; text: string } | { kind: 'done'; id: number } | { kind: 'failed'; id: number; message: string };

export interface CardScanner {
  /** findCardText() of card-scan.ts, run on the worker thread: the same card, the same work. */
  find(image: ScanImage, accept: (text: string) => boolean): Promise<string | null>;
  /** Ends the thread; a scan still waiting is done on the event loop, and so is any later one. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  image: ScanImage;
  accept: (text: string) => boolean;
  resolve: (text: string | null) => void;
  reject: (err: unknown) => void;
}

/**
 * Where the worker's code is. From the sources (tsx, the tests, the benchmarks) it is
 * card-scan.worker.ts, loaded through a small JavaScript file that registers tsx first (a worker
 * does not inherit its parent's loader hooks on Node 20). In a compiled dist/ it is
 * dist/card-scan-worker.js (scripts/build-server.ts), and this code is bundled into dist/ itself or
 * one folder below it (chunks/, cli/).
 */
function workerUrl(): URL {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return new URL('./card-scan.worker-from-sources.mjs', here);
  const beside = new URL('./card-scan-worker.js', here);
  return fs.existsSync(fileURLToPath(beside)) ? beside : new URL('../card-scan-worker.js', here);
}

/**
 * The scanner. A worker that fails (it cannot start, it throws, it dies) costs no card: the photo
 * it held is scanned again on the event loop, since a card missed would put that child's photos
 * with the previous child (docs/access.md, "Photos waiting for review"), and the next scan starts
 * a new worker. The pixels are shared memory (scanCopy(), greyCopy()), so the worker reads them
 * without a copy and the event loop still has them for that. `workerUrl` replaces the worker (the tests' failing one).
 */
export function createCardScanner(options: { logger: Logger; workerUrl?: URL }): CardScanner {
  const { logger } = options;
  const queue: Job[] = [];
  let worker: Worker | null = null;
  let current: Job | null = null;
  let nextId = 1;
  let closed = false;

  /** A scan the worker could not finish, done here: on the event loop, as before the worker. */
  function scanHere(job: Job): void {
    try {
      job.resolve(findCardText(job.image, job.accept));
    } catch (err) {
      job.reject(err);
    }
  }

  function start(): Worker {
    const started = new Worker(options.workerUrl ?? workerUrl());
    started.on('message', (reply: ScanReply) => heard(started, reply));
    started.on('error', (err) => failed(started, err));
    started.on('exit', (code) => failed(started, new Error(`the card scan's worker thread exited (code ${code})`)));
    return started;
  }

  /** The worker is gone: its scan is done here, the next one starts a new worker. */
  function failed(gone: Worker, err: unknown): void {
    if (gone !== worker) return;
    worker = null;
    void gone.terminate();
    logger.warn({ err }, "the card scan's worker thread failed; its photo is scanned on the event loop");
    const job = current;
    current = null;
    if (job) scanHere(job);
    pump();
  }

  function heard(from: Worker, reply: ScanReply): void {
    const job = current;
    if (from !== worker || !job || reply.id !== job.id) return;
    if (reply.kind === 'read') {
      let taken: boolean;
      try {
        taken = job.accept(reply.text);
      } catch (err) {
        from.postMessage({ kind: 'stop', id: job.id } satisfies ScanRequest);
        finish(() => job.reject(err));
        return;
      }
      from.postMessage({ kind: taken ? 'stop' : 'next', id: job.id } satisfies ScanRequest);
      if (taken) finish(() => job.resolve(reply.text));
    } else if (reply.kind === 'done') {
      finish(() => job.resolve(null));
    } else {
      logger.warn({ err: new Error(reply.message) }, "the card scan failed on its worker thread; the photo is scanned on the event loop");
      finish(() => scanHere(job));
    }
  }

  function finish(settle: () => void): void {
    current = null;
    settle();
    pump();
  }

  /** Sends the next waiting scan to the worker, starting one if there is none. */
  function pump(): void {
    if (current) return;
    const job = queue.shift();
    if (!job) {
      // An idle thread keeps no process alive (a command-line tool that never closes the runtime).
      worker?.unref();
      return;
    }
    current = job;
    worker ??= start();
    worker.ref();
    const { data, width, height, channels = 1 } = job.image;
    worker.postMessage({ kind: 'scan', id: job.id, data, width, height, channels } satisfies ScanRequest);
  }

  return {
    find(image, accept) {
      return new Promise((resolve, reject) => {
        const job = { id: nextId++, image, accept, resolve, reject };
        if (closed) scanHere(job);
        else {
          queue.push(job);
          pump();
        }
      });
    },

    async close() {
      closed = true;
      const gone = worker;
      worker = null;
      const left = [...(current ? [current] : []), ...queue.splice(0)];
      current = null;
      for (const job of left) scanHere(job);
      await gone?.terminate();
    },
  };
}
