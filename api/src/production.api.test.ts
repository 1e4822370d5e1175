import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, TEST_DB, describeApi, freePort } from '../test/harness';
import { freshDatabase, startServer, waitForHealth, type FreshDatabase } from '../test/processes';
import { startMailCatcher, type MailCatcher } from '../test/mail-catcher';
import { DEMO } from '../../db/seeds/demo';
import { waitUntil } from '../test/shop';

/**
 * NODE_ENV=production refuses unsafe defaults (docs/accounts.md, "Production defaults"): no start
 * on the sandbox's public PayGate key, no demo data, no reset links in the logs.
 */
describeApi(`NODE_ENV=production on ${TEST_DB}`, () => {
  let db: FreshDatabase;
  let mail: MailCatcher | null = null;
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await freshDatabase('photos-production-');
    const port = await freePort();
    env = {
      NODE_ENV: 'production',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: db.databaseUrl,
      DATA_DIR: db.dir,
      STORAGE_DIR: path.join(db.dir, 'storage'),
      JWT_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'info',
    };
    // MariaDB may be shared by several processes, which must name a mail server; SQLite may use the outbox.
    if (TEST_DB === 'mysql') {
      mail = await startMailCatcher();
      env.SMTP_URL = mail.url;
    }
  });
  afterAll(async () => {
    await mail?.close();
    await db?.drop();
  });

  /** A start that should be refused; one that comes up instead is stopped after 30 s (and fails the test). */
  const refusedStart = async (extra: Record<string, string> = {}) => {
    const server = startServer({ ...env, ...extra });
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
    try {
      return await server.exited;
    } finally {
      clearTimeout(timer);
    }
  };

  it('refuses to start without PAYGATE_ID and PAYGATE_SECRET, and says what to set', async () => {
    const run = await refusedStart();
    expect(run.code).toBe(1);
    expect(run.output).toContain('Refusing to start');
    expect(run.output).toContain('PAYGATE_ID and PAYGATE_SECRET');
    const onlyId = await refusedStart({ PAYGATE_ID: '1000000001' });
    expect(onlyId.code).toBe(1);
    expect(onlyId.output).toContain('PAYGATE_SECRET');
  }, 60_000);

  it('never seeds demo data, even with SEED_DEMO=true, and writes no reset link to its logs', async () => {
    const server = startServer({ ...env, SEED_DEMO: 'true', PAYGATE_ID: '1000000001', PAYGATE_SECRET: randomBytes(12).toString('hex') });
    try {
      expect((await waitForHealth(env.PUBLIC_URL!, server.exited)).status).toBe(200);
      const anon = new Client(env.PUBLIC_URL!);
      expect((await anon.get('/api/schools')).body).toEqual([]);
      expect((await anon.post('/api/auth/login', { email: DEMO.admin.email, password: DEMO.admin.password })).status).toBe(401);

      const parent = await anon.post('/api/auth/customer/register', { firstName: 'Naledi', lastName: 'Dube', email: 'naledi@example.test', password: 'secret12', confirmPassword: 'secret12' });
      expect(parent.status).toBe(201);
      expect((await anon.post('/api/auth/customer/forgot-password', { email: 'naledi@example.test' })).status).toBe(200);

      // The link went out (to the outbox file or the mail server), and nowhere into the log.
      let token = '';
      if (mail) {
        token = new URL(/https?:\/\/\S+reset-password\?token=\S+/.exec((await mail.waitFor('naledi@example.test')).text)![0]).searchParams.get('token')!;
      } else {
        const outbox = path.join(db.dir, 'outbox');
        for (let i = 0; i < 100 && !token; i++) {
          const files = await fs.readdir(outbox).catch(() => [] as string[]);
          const eml = files[0] ? await fs.readFile(path.join(outbox, files[0]), 'utf8') : '';
          token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(eml.replace(/=\r?\n/g, ''))?.[1] ?? '';
          if (!token) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        // The file is complete before the server logs that it wrote it: the line may come just after.
        await waitUntil(async () => server.output().includes('mail written to outbox'), 5000).catch(() => undefined);
        expect(server.output()).toContain('mail written to outbox');
      }
      expect(token.length).toBeGreaterThan(20);
      expect(server.output()).not.toContain(token);
      expect(server.output()).not.toContain('reset-password?token=');
    } finally {
      server.child.kill('SIGTERM');
    }
    expect((await server.exited).code).toBe(0);
  }, 90_000);
});
