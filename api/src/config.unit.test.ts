import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, assertSecretStrength, assertProductionPayments } from './config';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'config-'));

describe('config', () => {
  it('has the documented defaults', () => {
    const root = tmp();
    const config = loadConfig({}, root);
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.databaseUrl).toBe('sqlite:data/app.sqlite');
    expect(config.storageDir).toBe(path.join(root, 'data/storage'));
    expect(config.seedDemo).toBe(true);
    expect(config.paygate).toBeNull();
    expect(config.smtpUrl).toBeNull();
    expect(config.logLevel).toBe('info');
  });

  it('generates a 256-bit JWT secret once and keeps it in data/', () => {
    const root = tmp();
    const first = loadConfig({}, root).jwtSecret;
    expect(Buffer.from(first, 'base64url')).toHaveLength(32);
    expect(loadConfig({}, root).jwtSecret).toBe(first);
    expect(fs.statSync(path.join(root, 'data/jwt-secret')).mode & 0o777).toBe(0o600);
  });

  it('reads overrides and fails loudly on bad values', () => {
    const root = tmp();
    const config = loadConfig({ PORT: '9000', SEED_DEMO: 'false', PUBLIC_URL: 'https://photos.example.bw/', PAYGATE_ID: '123', PAYGATE_SECRET: 'k' }, root);
    expect(config.port).toBe(9000);
    expect(config.seedDemo).toBe(false);
    expect(config.publicUrl).toBe('https://photos.example.bw');
    expect(config.paygate).toEqual({ id: '123', secret: 'k' });
    expect(() => loadConfig({ PORT: 'eighty' }, root)).toThrow(/PORT/);
    expect(() => loadConfig({ SEED_DEMO: 'maybe' }, root)).toThrow(/SEED_DEMO/);
    expect(() => loadConfig({ PAYGATE_ID: '123' }, root)).toThrow(/PAYGATE_SECRET/);
    expect(() => assertSecretStrength('short')).toThrow(/32 bytes/);
  });

  it('refuses the public PayGate test credentials in production', () => {
    const root = tmp();
    const prod = (id: string, secret: string) => loadConfig({ NODE_ENV: 'production', PAYGATE_ID: id, PAYGATE_SECRET: secret }, root);
    expect(() => assertProductionPayments(prod('10011072130', 'secret'))).toThrow(/test credentials/);
    expect(() => assertProductionPayments(prod('10011072130', 'real-key'))).toThrow(/test credentials/);
    expect(() => assertProductionPayments(prod('20000000001', 'real-key'))).not.toThrow();
    expect(() => assertProductionPayments(loadConfig({ PAYGATE_ID: '10011072130', PAYGATE_SECRET: 'secret' }, root))).not.toThrow();
  });
});
