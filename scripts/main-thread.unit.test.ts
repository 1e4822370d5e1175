import { describe, expect, it } from 'vitest';
import { atReferenceSpeed, type MainThreadReport, type MainThreadTask } from './main-thread';

const task = (startMs: number, durationMs: number, scriptMs: number, url = '/assets/index.js'): MainThreadTask => ({ startMs, durationMs, scriptMs, url });

/** A report as analyse() gives it: tasks, the long ones, blocking after the first paint at 100 ms. */
function report(tasks: MainThreadTask[]): MainThreadReport {
  const longTasks = tasks.filter((t) => t.durationMs >= 50);
  return {
    url: 'http://127.0.0.1/',
    totalMs: tasks.reduce((sum, t) => sum + t.durationMs, 0),
    scriptMs: tasks.reduce((sum, t) => sum + t.scriptMs, 0),
    perScript: [{ url: '/assets/index.js', scriptMs: tasks.reduce((sum, t) => sum + t.scriptMs, 0), taskMs: tasks.reduce((sum, t) => sum + t.durationMs, 0) }],
    tasks,
    longTasks,
    blockingMs: longTasks.filter((t) => t.startMs + t.durationMs > 100).reduce((sum, t) => sum + t.durationMs - 50, 0),
    fcpMs: 100,
  };
}

describe('reading a trace at a reference speed', () => {
  // Before the first paint: an 80 ms task (not blocking); after it, tasks of 240, 120 and 40 ms.
  const measured = report([task(0, 80, 60), task(150, 240, 200), task(400, 120, 100), task(600, 40, 30)]);

  it('scales every time by score / reference and counts the long tasks and blocking time again', () => {
    expect(measured.blockingMs).toBe(190 + 70);
    const read = atReferenceSpeed(measured, 300, 600);
    expect(read.scriptMs).toBe(195);
    expect(read.totalMs).toBe(240);
    expect(read.perScript[0]?.scriptMs).toBe(195);
    // At half the time: 120 and 60 ms after the first paint block for 70 and 10; 40 and 20 ms are no long tasks.
    expect(read.longTasks.map((t) => t.durationMs)).toEqual([120, 60]);
    expect(read.blockingMs).toBe(70 + 10);
    // Which tasks end after the first paint is read from the trace as it was, not from the scaled times.
    expect(read.fcpMs).toBe(100);
  });

  it('a faster browser than the reference makes short tasks long', () => {
    const read = atReferenceSpeed(measured, 1200, 600);
    // At twice the time the 40 ms task is long; the 160 ms one before the first paint still blocks nothing.
    expect(read.longTasks.map((t) => t.durationMs)).toEqual([160, 480, 240, 80]);
    expect(read.blockingMs).toBe(430 + 190 + 30);
  });

  it('leaves the report as it is at the reference speed', () => {
    const read = atReferenceSpeed(measured, 600, 600);
    expect(read.blockingMs).toBe(measured.blockingMs);
    expect(read.scriptMs).toBe(measured.scriptMs);
  });
});
