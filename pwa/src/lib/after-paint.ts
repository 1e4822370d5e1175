/**
 * Work a tap causes that the screen does not show (downloads for later, copies to IndexedDB or the
 * server) runs after the frame the tap painted, when the browser has nothing more urgent: a module
 * evaluated or a database opened in between would delay the tap's paint on a slow phone
 * (docs/performance.md, "The first taps"). A hidden page paints no frames: there the work runs
 * within half a second all the same.
 */
export function afterPaint(work: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 1000 });
    else work();
  };
  // The animation frame runs before the paint; a task queued from it runs after.
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(run, 0));
  setTimeout(run, 500);
}
