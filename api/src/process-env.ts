/**
 * What a server process's environment should hold before it starts, which no code in the process
 * can set for itself (docs/images.md, "Memory"). `npm start`, the Dockerfile, the benchmarks and the
 * browser journeys start the server with it.
 *
 * MALLOC_ARENA_MAX=2: glibc gives each thread that allocates its own memory arena, and libvips'
 * worker threads leave decoded photos' memory fragmented across them. Two arenas took the server's
 * peak memory for 200 twelve-megapixel uploads from 375-408 MB to about 300 MB, at the same speed.
 */
export const SERVER_PROCESS_ENV = { MALLOC_ARENA_MAX: '2' } as const;

/** What is missing from this process's environment, as lines to log at start (Linux with glibc only). */
export function missingProcessEnv(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string[] {
  if (platform !== 'linux') return [];
  return Object.entries(SERVER_PROCESS_ENV)
    .filter(([name]) => !env[name])
    .map(([name, value]) => `${name} is not set: start the server with ${name}=${value} (npm start does) to keep image uploads' memory in bounds`);
}
