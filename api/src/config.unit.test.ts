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

  it('reads the SMS centre, the sender, the cost and the window (docs/sms.md, "Sending")', () => {
    const root = tmp();
    const defaults = loadConfig({}, root);
    expect(defaults.smsUrl).toBeNull();
    expect(defaults.smsSenderId).toBe('Lesedi Scho');
    expect(defaults.smsCostThebe).toBe(25);
    expect(defaults.smsWindow).toBe(10);
    expect(loadConfig({ BUSINESS_NAME: 'Ṱhabo & Sons Photography' }, root).smsSenderId).toBe('Thabo Sons');
    const set = loadConfig({ SMS_URL: 'smpp://photos:secret@smsc.example.bw:2775', SMS_SENDER_ID: 'KgosiPhoto', SMS_COST_THEBE: '30', SMS_WINDOW: '20' }, root);
    expect(set).toMatchObject({ smsUrl: 'smpp://photos:secret@smsc.example.bw:2775', smsSenderId: 'KgosiPhoto', smsCostThebe: 30, smsWindow: 20 });
    expect(loadConfig({ SMS_SENDER_ID: '+26771234567' }, root).smsSenderId).toBe('+26771234567');
    expect(() => loadConfig({ SMS_URL: 'http://smsc.example.bw' }, root)).toThrow(/SMS_URL: must start with smpp:\/\//);
    expect(() => loadConfig({ SMS_URL: 'smpp://smsc.example.bw:2775' }, root)).toThrow(/SMS_URL: must carry the system_id/);
    expect(() => loadConfig({ SMS_URL: 'smpp://photos:muchtoolong@smsc.example.bw:2775' }, root)).toThrow(/SMS_URL: the password has at most 8 characters/);
    expect(() => loadConfig({ SMS_SENDER_ID: 'Far Too Long Sender' }, root)).toThrow(/SMS_SENDER_ID/);
    expect(() => loadConfig({ SMS_WINDOW: '0' }, root)).toThrow(/SMS_WINDOW/);
  });

  it('reads the payment methods and stops at an unknown one, naming it', () => {
    const root = tmp();
    expect(loadConfig({}, root).paymentMethods).toEqual(['card']);
    expect(loadConfig({}, root).bankTransferExpiryDays).toBe(7);
    expect(loadConfig({ PAYMENT_METHODS: ' bank_transfer, Card ,ewallet' }, root).paymentMethods).toEqual(['card', 'ewallet', 'bank_transfer']);
    expect(loadConfig({ PAYMENT_METHODS: 'ewallet' }, root).paymentMethods).toEqual(['ewallet']);
    expect(() => loadConfig({ PAYMENT_METHODS: 'card,mpesa' }, root)).toThrow(/PAYMENT_METHODS has unknown method "mpesa": use a comma-separated list of card, ewallet, bank_transfer/);
    expect(() => loadConfig({ BANK_TRANSFER_EXPIRY_DAYS: '0' }, root)).toThrow(/BANK_TRANSFER_EXPIRY_DAYS/);
  });

  it('reads the bank account for transfers: the name, bank and number together or none, each checked', () => {
    const root = tmp();
    expect(loadConfig({}, root).bankAccount).toBeNull();
    const account = { BANK_ACCOUNT_NAME: ' Lesedi School Photos (Pty) Ltd ', BANK_NAME: 'First National Bank Botswana', BANK_ACCOUNT_NUMBER: '6200 1234 567' };
    expect(loadConfig(account, root).bankAccount).toEqual({ accountName: 'Lesedi School Photos (Pty) Ltd', bankName: 'First National Bank Botswana', accountNumber: '6200 1234 567', branchCode: null });
    expect(loadConfig({ ...account, BANK_BRANCH_CODE: '282467' }, root).bankAccount?.branchCode).toBe('282467');
    expect(() => loadConfig({ BANK_ACCOUNT_NAME: 'Lesedi', BANK_NAME: 'FNB' }, root)).toThrow(/BANK_ACCOUNT_NUMBER must be set too/);
    expect(() => loadConfig({ BANK_BRANCH_CODE: '282467' }, root)).toThrow(/BANK_BRANCH_CODE is set without/);
    expect(() => loadConfig({ ...account, BANK_ACCOUNT_NUMBER: 'call us' }, root)).toThrow(/BANK_ACCOUNT_NUMBER: must be the account number/);
    expect(() => loadConfig({ ...account, BANK_BRANCH_CODE: '28/24' }, root)).toThrow(/BANK_BRANCH_CODE: must be the branch code/);
    expect(() => loadConfig({ ...account, BANK_NAME: 'x'.repeat(101) }, root)).toThrow(/BANK_NAME/);
  });

  it('reads how long an unpaid order holds its coupon use and the order limit, and stops at a value out of range', () => {
    const root = tmp();
    expect(loadConfig({}, root).couponHoldMinutes).toBe(60);
    expect(loadConfig({ COUPON_HOLD_MINUTES: '90' }, root).couponHoldMinutes).toBe(90);
    expect(() => loadConfig({ COUPON_HOLD_MINUTES: '20' }, root)).toThrow(/COUPON_HOLD_MINUTES/);
    expect(() => loadConfig({ COUPON_HOLD_MINUTES: 'an hour' }, root)).toThrow(/COUPON_HOLD_MINUTES/);
    expect(loadConfig({}, root).orderLimitPerClient).toBe(10);
    expect(() => loadConfig({ ORDER_LIMIT_PER_CLIENT: '0' }, root)).toThrow(/ORDER_LIMIT_PER_CLIENT/);
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

  it('chooses the photo store from STORAGE_URL, keeping STORAGE_DIR for file:', () => {
    const root = tmp();
    expect(loadConfig({}, root).storage).toEqual({ kind: 'file', root: path.join(root, 'data/storage') });
    expect(loadConfig({ STORAGE_DIR: 'photos' }, root).storage).toEqual({ kind: 'file', root: path.join(root, 'photos') });
    expect(loadConfig({ STORAGE_URL: 'file:/srv/photos' }, root)).toMatchObject({ storage: { kind: 'file', root: '/srv/photos' }, storageDir: '/srv/photos' });
    const s3 = loadConfig(
      { STORAGE_URL: 's3://school-photos/prod/', S3_ENDPOINT: 'http://minio:9000/', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'key', S3_FORCE_PATH_STYLE: 'true' },
      root,
    );
    expect(s3.storage).toEqual({
      kind: 's3',
      bucket: 'school-photos',
      prefix: 'prod/',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'key',
      forcePathStyle: true,
    });
    expect(loadConfig({ STORAGE_URL: 's3://school-photos' }, root).storage).toMatchObject({ prefix: '', endpoint: null, accessKeyId: null, forcePathStyle: false });
    expect(() => loadConfig({ STORAGE_URL: 's3://No_Such' }, root)).toThrow(/bucket name/);
    expect(() => loadConfig({ STORAGE_URL: 's3://photos/../x' }, root)).not.toThrow();
    expect(() => loadConfig({ STORAGE_URL: 's3://photos/a b' }, root)).toThrow(/prefix/);
    expect(() => loadConfig({ STORAGE_URL: 's3://photos', S3_ACCESS_KEY_ID: 'id' }, root)).toThrow(/together/);
    expect(() => loadConfig({ STORAGE_URL: 'ftp://photos' }, root)).toThrow(/STORAGE_URL/);
  });

  it('refuses a generated JWT secret and the outbox when production may run several processes', () => {
    const root = tmp();
    const refused = tmp();
    const prod = { NODE_ENV: 'production' };
    const settled = { JWT_SECRET: 'x'.repeat(43), SMTP_URL: 'smtp://mail.example:587' };
    // Shared: a MySQL database, a bucket or Redis under NODE_ENV=production.
    for (const shared of [
      { DATABASE_URL: 'mysql://photos:pw@db:3306/photos' },
      { STORAGE_URL: 's3://school-photos' },
      { REDIS_URL: 'redis://redis:6379' },
    ]) {
      expect(() => loadConfig({ ...prod, ...shared, SMTP_URL: settled.SMTP_URL }, refused)).toThrow(/JWT_SECRET is required/);
      expect(() => loadConfig({ ...prod, ...shared, JWT_SECRET: settled.JWT_SECRET }, refused)).toThrow(/SMTP_URL is required/);
      expect(loadConfig({ ...prod, ...shared, ...settled }, root).sharedDeployment).toBe(true);
      // Outside production the same settings are a developer's machine.
      expect(loadConfig({ ...shared }, root).sharedDeployment).toBe(false);
    }
    // A refused start leaves no generated secret behind for a later start to pick up.
    expect(fs.existsSync(path.join(refused, 'data/jwt-secret'))).toBe(false);
    // One process on SQLite and a local folder may keep its generated secret, even in production.
    const single = tmp();
    const config = loadConfig({ ...prod }, single);
    expect(config.sharedDeployment).toBe(false);
    expect(config.jwtSecret).toBe(fs.readFileSync(path.join(single, 'data/jwt-secret'), 'utf8').trim());
  });
});
