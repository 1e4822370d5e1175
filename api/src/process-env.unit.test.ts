import { describe, expect, it } from 'vitest';
import { missingProcessEnv, SERVER_PROCESS_ENV } from './process-env';

describe('the environment a server process starts with', () => {
  it('names MALLOC_ARENA_MAX when it is not set on Linux, and nothing once it is', () => {
    expect(SERVER_PROCESS_ENV.MALLOC_ARENA_MAX).toBe('2');
    const [line] = missingProcessEnv({}, 'linux');
    expect(line).toMatch(/^MALLOC_ARENA_MAX is not set: start the server with MALLOC_ARENA_MAX=2/);
    expect(missingProcessEnv({ MALLOC_ARENA_MAX: '4' }, 'linux')).toEqual([]);
    // glibc's arenas are a Linux matter.
    expect(missingProcessEnv({}, 'darwin')).toEqual([]);
  });

  it('npm start sets it', async () => {
    const { default: pkg } = await import('../../package.json', { with: { type: 'json' } });
    expect(pkg.scripts.start).toContain('MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2} node --enable-source-maps dist/server.js');
  });
});
