import type { UploadedFile } from '../http/multipart';
import type { MediaService, PreparedPhoto } from './media.types';
import { MEDIA_JOBS } from './media.service';
import { createLimiter } from '../lib/semaphore';
import { AppError } from '../http/errors';

type Outcome = { ok: true; prepared: PreparedPhoto } | { ok: false; error: unknown };

/** Stands in for files after a failure that is not a file's own: the batch fails anyway, so they are not decoded. */
const SKIPPED = new Error('skipped after an earlier file failed');

/** A file's own fault (not an image, corrupt, too many pixels): that file is refused, the others go on (docs/images.md, "One bad file refuses one file"). */
const filesOwnFault = (error: unknown) => error instanceof AppError && error.status < 500;

/**
 * Files of one request prepared at once by default: as many as the media service decodes at once,
 * so one photographer's batch keeps every core busy. One more would keep the decoder fed while a
 * file is checked or written, but measured no faster and raised the server's peak memory by about
 * 30 MB (one more upload's decoder memory in flight).
 */
export const PIPELINE_JOBS = MEDIA_JOBS;

/**
 * Prepares the files of one request, started in arrival order and `concurrency` at a time, while
 * later files are still streaming in: decoding overlaps the upload instead of waiting for the
 * whole form. A bad file fails alone; after any other failure (storage, memory), files not yet
 * started are skipped. `cardScan` is handed to every
 * preparation (see MediaService.prepareUpload).
 */
export function createUploadPipeline(
  media: Pick<MediaService, 'prepareUpload'>,
  concurrency = PIPELINE_JOBS,
  options: { cardScan?: () => boolean } = {},
) {
  const outcomes = new Map<string, Promise<Outcome>>();
  const limit = createLimiter(concurrency);
  let failed = false;

  function add(file: UploadedFile): Promise<Outcome> {
    const outcome = limit(async () => {
      if (failed) throw SKIPPED;
      try {
        return await media.prepareUpload(file, { cardScan: options.cardScan });
      } catch (error) {
        // Before the slot is released, so the next file already sees it.
        if (!filesOwnFault(error)) failed = true;
        throw error;
      }
    }).then(
      (prepared): Outcome => ({ ok: true, prepared }),
      (error: unknown): Outcome => ({ ok: false, error }),
    );
    outcomes.set(file.path, outcome);
    return outcome;
  }

  return {
    add,
    /** The prepared photo for a file; one that never went through add() is queued now. */
    async prepared(file: UploadedFile): Promise<PreparedPhoto> {
      const result = await (outcomes.get(file.path) ?? add(file));
      if (!result.ok) throw result.error;
      return result.prepared;
    },
    /** Waits for every preparation to settle and drops the temp renditions never committed. */
    async discard(): Promise<void> {
      const settled = await Promise.all(outcomes.values());
      await Promise.all(settled.map((outcome) => (outcome.ok ? outcome.prepared.discard() : undefined)));
    },
  };
}
