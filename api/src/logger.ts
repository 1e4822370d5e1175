import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** `destination` defaults to stdout; tests pass their own to read what was logged. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'], remove: true },
  };
  return destination ? pino(options, destination) : pino(options);
}
