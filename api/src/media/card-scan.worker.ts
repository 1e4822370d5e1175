/**
 * The card scan's worker thread (card-scan-thread.ts starts it): runs the scan of card-scan.ts off
 * the event loop, one photo at a time. Whether a text read is a card is the event loop's question
 * (the predicate is a function, which cannot cross to this thread), so each text is sent as soon
 * as it is read and the scan goes on only when told to: it stops at the first text taken, exactly
 * where a scan on the event loop would (docs/images.md, "Cards at the shoot").
 */
import { parentPort } from 'node:worker_threads';
import { codesRead } from './card-scan';
import type { ScanReply, ScanRequest } from './card-scan-thread';

const port = parentPort;
if (!port) throw new Error('card-scan.worker runs only as a worker thread');

let current: { id: number; codes: Generator<string, void, undefined> } | null = null;

/** Reads on to the next text (or the end) of the current scan and says what came of it. */
function step(): void {
  const scan = current;
  if (!scan) return;
  let reply: ScanReply;
  try {
    const next = scan.codes.next();
    reply = next.done ? { kind: 'done', id: scan.id } : { kind: 'read', id: scan.id, text: next.value };
  } catch (err) {
    reply = { kind: 'failed', id: scan.id, message: err instanceof Error ? err.message : String(err) };
  }
  if (reply.kind !== 'read') current = null;
  port?.postMessage(reply);
}

port.on('message', (request: ScanRequest) => {
  if (request.kind === 'scan') {
    current = { id: request.id, codes: codesRead({ data: request.data, width: request.width, height: request.height, channels: request.channels }) };
    step();
  } else if (current?.id === request.id) {
    if (request.kind === 'next') step();
    else current = null;
  }
});
