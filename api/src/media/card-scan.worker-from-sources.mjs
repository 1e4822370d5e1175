// The card scan's worker thread when the server runs from its TypeScript sources (tsx, the tests,
// the benchmarks): Node 20 does not hand a worker the loader hooks of its parent's `--import tsx`,
// so the worker registers tsx itself before it loads card-scan.worker.ts (card-scan-thread.ts).
import { register } from 'tsx/esm/api';

register();
await import('./card-scan.worker.ts');
