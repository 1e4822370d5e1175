/**
 * The bench's SMS centre as a process of its own (docs/sms.md, "Measured"): the test SMS centre
 * (the `smpp` package's server) answering each submit after BENCH_SMSC_LATENCY_MS, keeping the
 * outbox message id each submit carries (the TLV 0x1400). The parent asks over IPC:
 * `{ ask: 'count' }` → `{ count }`, `{ ask: 'ids' }` → `{ ids }` (one per accepted submit),
 * `{ ask: 'latency', ms }` → `{ latency }`, `{ ask: 'stop' }`.
 */
import { startSmsc } from '../test/smsc';

let latencyMs = Number(process.env.BENCH_SMSC_LATENCY_MS ?? 10);
const smsc = await startSmsc({ latencyMs: 0, light: true, delay: () => latencyMs });
process.send?.({ url: smsc.url });
process.on('message', (raw: unknown) => {
  const message = raw as { ask: string; ms?: number };
  if (message.ask === 'count') process.send?.({ count: smsc.messages.length });
  else if (message.ask === 'ids') process.send?.({ ids: smsc.messages.map((m) => m.outboxMessageId ?? '') });
  else if (message.ask === 'latency') {
    latencyMs = message.ms ?? 0;
    process.send?.({ latency: latencyMs });
  } else if (message.ask === 'stop') void smsc.stop().then(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
