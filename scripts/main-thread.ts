/**
 * The main thread's work while a page opens, as a slow phone does it: Chromium's own trace
 * (DevTools protocol, Tracing) of a cold load with the CPU slowed 4x (Emulation), read the way
 * Lighthouse reads it. Every top-level task of the page's main thread is counted; a task of 50 ms
 * or more is a long task, and what it runs beyond 50 ms is blocking time. Script time is the time
 * inside V8 (compiling, evaluating modules, calling into JavaScript, microtasks, garbage
 * collection of the JS heap), attributed to the script whose code ran first in it; time in a task
 * that ran no script (HTML parsing, style, layout, paint) is the browser's own.
 * With MAIN_THREAD_DEBUG=1, the events of each long task are listed (what a long task was made of).
 */
import type { BrowserContext, CDPSession } from 'playwright-core';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';

/** One trace event as Chromium writes it (the fields read here). */
interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; frame?: string; data?: { url?: string; frame?: string; processId?: number; isOutermostMainFrame?: boolean; stackTrace?: { url?: string }[] }; fileName?: string; url?: string };
}

export interface MainThreadTask {
  /** Milliseconds from navigation start. */
  startMs: number;
  durationMs: number;
  scriptMs: number;
  /** The script whose code ran first in the task, or '' for the browser's own work. */
  url: string;
}

export interface MainThreadReport {
  url: string;
  /** Sum of every top-level task of the page's main thread (milliseconds, CPU slowed 4x). */
  totalMs: number;
  /** Time inside JavaScript, all scripts. */
  scriptMs: number;
  /** Script time per script URL (path and query only), the biggest first. */
  perScript: { url: string; scriptMs: number; taskMs: number }[];
  /** Every top-level task, in order. */
  tasks: MainThreadTask[];
  /** Tasks of 50 ms or more, in order. */
  longTasks: MainThreadTask[];
  /** Sum over the long tasks that end after the first paint of what each ran beyond 50 ms. */
  blockingMs: number;
  /** First contentful paint, milliseconds from navigation start. */
  fcpMs: number;
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'v8.execute',
  'v8',
  'blink.user_timing',
  ...(process.env.MAIN_THREAD_DEBUG ? ['disabled-by-default-v8.compile'] : []),
  'loading',
].join(',');

const TOP_LEVEL = new Set(['RunTask', 'ThreadControllerImpl::RunTask', 'ThreadPool_RunTask']);
/** Events that name the script a task runs (the first one found names the task's script). */
const SCRIPT = new Set([
  'EvaluateScript',
  'v8.evaluateModule',
  'FunctionCall',
  'v8.compile',
  'v8.compileModule',
  'v8.produceCache',
  'v8.produceModuleCache',
  'RunMicrotasks',
  'V8.GCScavenger',
  'MajorGC',
  'MinorGC',
  'V8.GCFinalizeMC',
  'V8.GC_MC_BACKGROUND_EVACUATE_COPY',
  'TimerFire',
  'FireAnimationFrame',
  'FireIdleCallback',
  'EventDispatch',
]);
/** Events inside V8: their outermost occurrences in a task are summed as its script time (an event dispatch or a timer counts through the calls it makes). */
const JS = new Set(['EvaluateScript', 'v8.evaluateModule', 'FunctionCall', 'v8.compile', 'v8.compileModule', 'v8.produceCache', 'v8.produceModuleCache', 'RunMicrotasks', 'V8.GCScavenger', 'MajorGC', 'MinorGC', 'V8.GCFinalizeMC']);

const LONG_TASK_MS = 50;

function urlOf(event: TraceEvent): string {
  const data = event.args?.data;
  return data?.url || data?.stackTrace?.[0]?.url || event.args?.fileName || event.args?.url || '';
}

const shortUrl = (url: string) => {
  if (!url) return '';
  try {
    const { pathname, search } = new URL(url);
    return `${pathname}${search}`;
  } catch {
    return url;
  }
};

/** Opens `url` in a new page of `context` with the CPU slowed `cpuSlowdown` times and reads the trace until the network is quiet. */
export async function traceMainThread(
  context: BrowserContext,
  url: string,
  options: { cpuSlowdown?: number; settleMs?: number } = {},
): Promise<MainThreadReport> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.cpuSlowdown ?? 4 });
    const events = await record(cdp, async () => {
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(options.settleMs ?? 1000);
    });
    return analyse(events, url);
  } finally {
    await page.close();
  }
}

async function record(cdp: CDPSession, during: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }: { value: unknown[] }) => {
    for (const event of value) events.push(event as TraceEvent);
  });
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  await during();
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await complete;
  return events;
}

export function analyse(events: TraceEvent[], url: string): MainThreadReport {
  // The page's renderer and frame: where the browser committed the navigation to `url` (the last
  // such commit, after any redirect). The renderer's navigationStart for that frame is the start
  // of the clock; now and then the trace lacks it, and the commit stands in.
  const commits = events.filter((event) => event.name === 'FrameCommittedInBrowser' && event.args?.data?.isOutermostMainFrame === true && event.args.data.url === url);
  const commit = commits[commits.length - 1];
  const committed = commit?.args?.data;
  if (!commit || committed?.processId === undefined) throw new Error(`the trace has no navigation to ${url}`);
  const pid = committed.processId;
  const frame = committed.frame;
  const tid = events.find((event) => event.ph === 'M' && event.name === 'thread_name' && event.pid === pid && event.args?.name === 'CrRendererMain')?.tid;
  if (tid === undefined) throw new Error(`the trace has no main thread for the renderer of ${url}`);
  const starts = events.filter((event) => event.name === 'navigationStart' && event.pid === pid && event.tid === tid && event.args?.frame === frame && event.ts <= commit.ts);
  const t0 = (starts[starts.length - 1] ?? commit).ts;
  const onMain = events.filter((event) => event.pid === pid && event.tid === tid && event.ph === 'X' && event.ts >= t0 && typeof event.dur === 'number').sort((a, b) => a.ts - b.ts || (b.dur as number) - (a.dur as number));
  const fcp = events.find((event) => event.name === 'firstContentfulPaint' && event.pid === pid && event.args?.frame === frame && event.ts >= t0);
  const fcpMs = fcp ? (fcp.ts - t0) / 1000 : 0;

  // Top-level tasks, each with the events nested in it.
  const tasks: MainThreadTask[] = [];
  let current: { task: MainThreadTask; end: number; scriptEnd: number } | null = null;
  for (const event of onMain) {
    const end = event.ts + (event.dur as number);
    if (TOP_LEVEL.has(event.name) && (!current || event.ts >= current.end)) {
      current = { task: { startMs: (event.ts - t0) / 1000, durationMs: (event.dur as number) / 1000, scriptMs: 0, url: '' }, end, scriptEnd: 0 };
      tasks.push(current.task);
      continue;
    }
    if (!current || event.ts >= current.end) continue;
    if (SCRIPT.has(event.name)) {
      if (!current.task.url) current.task.url = shortUrl(urlOf(event));
      if (JS.has(event.name) && event.ts >= current.scriptEnd) {
        current.task.scriptMs += (event.dur as number) / 1000;
        current.scriptEnd = end;
      }
    }
  }
  const perScript = new Map<string, { scriptMs: number; taskMs: number }>();
  for (const task of tasks) {
    const key = task.url || (task.scriptMs > 0 ? '(no URL)' : '(browser)');
    const row = perScript.get(key) ?? { scriptMs: 0, taskMs: 0 };
    row.scriptMs += task.scriptMs;
    row.taskMs += task.durationMs;
    perScript.set(key, row);
  }
  const longTasks = tasks.filter((task) => task.durationMs >= LONG_TASK_MS);
  if (process.env.MAIN_THREAD_DEBUG) {
    for (const task of longTasks) {
      const from = t0 + task.startMs * 1000;
      const to = from + task.durationMs * 1000;
      console.log(`long task at ${Math.round(task.startMs)} ms, ${Math.round(task.durationMs)} ms; its events of 4 ms or more (offset, name, duration, script):`);
      for (const event of onMain) {
        if (event.ts < from || event.ts >= to || (event.dur as number) < 4000 || TOP_LEVEL.has(event.name)) continue;
        console.log(`  +${Math.round((event.ts - from) / 1000)} ${event.name} ${Math.round((event.dur as number) / 1000)} ms ${shortUrl(urlOf(event)).slice(0, 60)}`);
      }
    }
  }
  return {
    url,
    totalMs: tasks.reduce((sum, task) => sum + task.durationMs, 0),
    scriptMs: tasks.reduce((sum, task) => sum + task.scriptMs, 0),
    perScript: [...perScript].map(([key, row]) => ({ url: key, ...row })).sort((a, b) => b.scriptMs - a.scriptMs),
    tasks,
    longTasks,
    blockingMs: blockingAfter(tasks, fcpMs, 1),
    fcpMs,
  };
}

/** What the tasks ending after the first paint ran beyond 50 ms, their durations scaled by `factor`. */
function blockingAfter(tasks: MainThreadTask[], fcpMs: number, factor: number): number {
  return tasks
    .filter((task) => task.startMs + task.durationMs > fcpMs && task.durationMs * factor >= LONG_TASK_MS)
    .reduce((sum, task) => sum + task.durationMs * factor - LONG_TASK_MS, 0);
}

/**
 * The benchmark index the main-thread budgets hold at (scripts/check-bundle.ts explains the value):
 * figures measured on a faster or slower day are read at it (atReferenceSpeed).
 */
export const REFERENCE_BENCHMARK_INDEX = 600;

/**
 * How fast this browser runs JavaScript with the CPU slowed `cpuSlowdown` times: Lighthouse's own
 * benchmark index (about a second of string building and array copying, in a blank page of
 * `context`). The same page's main-thread time is about inversely proportional to it, so a run on
 * a busy or slower machine can be read at a fixed speed (atReferenceSpeed).
 */
export async function benchmarkScore(context: BrowserContext, cpuSlowdown = 4): Promise<number> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    return await page.evaluate(pageFunctions.computeBenchmarkIndex);
  } finally {
    await page.close();
  }
}

/**
 * The report as a browser scoring `reference` would have given it: every task's duration and script
 * time scaled by score / reference, then the long tasks and the blocking time counted again (which
 * tasks end after the first paint is read from the trace as it was).
 */
export function atReferenceSpeed(report: MainThreadReport, score: number, reference: number): MainThreadReport {
  const factor = score / reference;
  const tasks = report.tasks.map((task) => ({ ...task, durationMs: task.durationMs * factor, scriptMs: task.scriptMs * factor }));
  return {
    ...report,
    totalMs: report.totalMs * factor,
    scriptMs: report.scriptMs * factor,
    perScript: report.perScript.map((row) => ({ ...row, scriptMs: row.scriptMs * factor, taskMs: row.taskMs * factor })),
    tasks,
    longTasks: tasks.filter((task) => task.durationMs >= LONG_TASK_MS),
    blockingMs: blockingAfter(report.tasks, report.fcpMs, factor),
  };
}

export function printReport(label: string, report: MainThreadReport): void {
  const ms = (n: number) => `${Math.round(n)} ms`;
  console.log(`${label}: main thread ${ms(report.totalMs)}, scripts ${ms(report.scriptMs)}, first paint at ${ms(report.fcpMs)}, blocking after it ${ms(report.blockingMs)} (CPU 4x slower)`);
  for (const row of report.perScript.slice(0, 6)) console.log(`  ${ms(row.scriptMs).padStart(8)} script in ${ms(row.taskMs).padStart(8)} of tasks  ${row.url.slice(0, 80)}`);
  for (const task of report.longTasks) console.log(`  long task at ${ms(task.startMs)}: ${ms(task.durationMs)} (${ms(task.scriptMs)} script) ${task.url.slice(0, 70)}`);
}
