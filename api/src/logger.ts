import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';

export type { Logger };

/** The request being served, for every log line written while serving it (docs/operations.md, "Logs and request ids"). */
const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/**
 * Runs `work` as part of the request with this id: every line any logger writes meanwhile (a
 * route's, a service's, the error handler's, work the request started) carries `requestId`, so
 * services log through `deps.logger` without ever seeing the request.
 */
export function inRequest<T>(requestId: string, work: () => T): T {
  return requestScope.run({ requestId }, work);
}

/**
 * Readable lines for a person at a terminal: outside production and only when stdout is a TTY
 * (a pipe, a file or a log collector gets JSON).
 */
export function wantsPrettyLogs(nodeEnv: string, stdout: { isTTY?: boolean } = process.stdout): boolean {
  return nodeEnv !== 'production' && stdout.isTTY === true;
}

/** The request's fields the pretty line already says in its message (`GET /api/health 200 3 ms`). */
const REQUEST_LINE_FIELDS = 'method,path,status,ms';

/**
 * pino-pretty for a person at a terminal: one line per entry, the time, the level, the request id
 * (when the line is about a request) and the message; other fields follow on the same line.
 */
export function prettyLogStream(destination?: NodeJS.WritableStream): DestinationStream {
  return pinoPretty({
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    messageFormat: '{if requestId}{requestId} {end}{msg}',
    ignore: `requestId,${REQUEST_LINE_FIELDS}`,
    // Written at once, so the last lines before an exit (a failed start, "shutting down") show.
    sync: true,
    ...(destination ? { destination } : {}),
  });
}

/** `destination` defaults to JSON on stdout (see prettyLogStream for a terminal); tests pass their own to read what was logged. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'], remove: true },
    mixin: () => {
      const scope = requestScope.getStore();
      return scope ? { requestId: scope.requestId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
