/** A counting semaphore: at most `size` tasks run at once, the rest wait in arrival order. */
export function createLimiter(size: number) {
  let active = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    active -= 1;
    const next = waiting.shift();
    if (next) {
      active += 1;
      next();
    }
  };

  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active < size) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      release();
    }
  };
}
export type Limiter = ReturnType<typeof createLimiter>;
