import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { startSmsc, type TestSmsc } from './smsc';

/**
 * For a suite whose server sends SMS to its own test SMS centre: both are started before the
 * suite's tests and stopped after them. Read `smsc` and `server` inside hooks and tests.
 */
export function smsSuite(): { readonly smsc: TestSmsc; readonly server: TestServer } {
  let smsc: TestSmsc | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    smsc = await startSmsc();
    server = await startTestServer({}, { smsUrl: smsc.url });
  });
  afterAll(async () => {
    await server?.close();
    await smsc?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the SMS suite has not started yet');
    return value;
  };
  return {
    get smsc() {
      return started(smsc);
    },
    get server() {
      return started(server);
    },
  };
}
