import type { UploadedFile } from '../http/multipart';
import type { MediaService, PreparedPhoto } from './media.types';

type Outcome = { ok: true; prepared: PreparedPhoto } | { ok: false; error: unknown };

/** Stands in for files after the first failure: the batch is refused anyway, so they are not decoded. */
const SKIPPED = new Error('skipped after an earlier file failed');

/**
 * Prepares the files of one request one at a time, in arrival order, while later files are still
 * streaming in: decoding overlaps the upload instead of waiting for the whole form.
 */
export function createUploadPipeline(media: Pick<MediaService, 'prepareUpload'>) {
  const outcomes = new Map<string, Promise<Outcome>>();
  let tail: Promise<unknown> = Promise.resolve();
  let failed = false;

  function add(file: UploadedFile): Promise<Outcome> {
    const outcome = tail
      .then(() => (failed ? Promise.reject(SKIPPED) : media.prepareUpload(file)))
      .then(
        (prepared): Outcome => ({ ok: true, prepared }),
        (error: unknown): Outcome => {
          failed = true;
          return { ok: false, error };
        },
      );
    tail = outcome;
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
