import { afterAll, beforeAll, expect, it } from 'vitest';
import { CODE_RECOVERY_LIMITS, CODE_RECOVERY_MSG } from '../../contract/code-recovery';
import { PHONE_MSG } from '../../contract/phone';
import { smsSegments } from '../../contract/sms-text';
import { rosterImportResponseSchema, rosterPreviewSchema, type Student } from '../../contract/students';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { pdfPagesText } from '../../test/pdf';
import { startSmsc, type TestSmsc } from '../../test/smsc';
import { createShop, type Shop } from '../../test/shop';
import { createAlbum } from '../../test/fixtures';
import { assignPhotos, postCsv, setAccessMode } from './students.test-helpers';

/** docs/sms.md, "Codes recovered by phone". */
describeApi('codes recovered by phone (guardianPhone on the roster, POST /api/students/recover)', () => {
  let smsc: TestSmsc;
  let server: TestServer;
  let staff: Client;
  let shop: Shop;
  /** The family's phone on two class lists; a child of it marked do not publish; one in a draft class. */
  const FAMILY = '+26774000111';
  let kagiso: Student;
  let lorato: Student;
  let hidden: Student;
  let drafted: Student;
  let kagisoPhoto: number;

  beforeAll(async () => {
    smsc = await startSmsc();
    server = await startTestServer({ SMS_URL: smsc.url });
    staff = await staffClient(server, 'photographer');
    shop = await createShop(server);
    await setAccessMode(await staffClient(server, 'admin'), shop.schoolId, 'student_codes');
    const add = async (albumId: number, rows: Record<string, unknown>[]) => {
      const res = await staff.post(`/api/albums/${albumId}/students`, { students: rows });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return rosterImportResponseSchema.parse(res.body).students;
    };
    [kagiso, hidden] = (await add(shop.openAlbumId, [
      { name: 'Kagiso Dube', guardianPhone: '74 000 111' },
      { name: 'Neo Dube', guardianPhone: '+267 74 000 111' },
      { name: 'Mpho Tau', guardianPhone: '75 999 000' },
    ])) as [Student, Student];
    [lorato] = (await add(shop.protectedAlbumId, [{ name: 'Lorato Ṱhabo-Dube', guardianPhone: '26774000111' }])) as [Student];
    const draftAlbum = await createAlbum(server, shop.schoolId, { name: 'Class 3C' });
    await server.runtime.knex('albums').where({ id: draftAlbum }).update({ status: 'draft', publish_at: null });
    [drafted] = (await add(draftAlbum, [{ name: 'Thato Dube', guardianPhone: '74000111' }])) as [Student];
    expect((await staff.patch(`/api/students/${hidden.id}`, { doNotPublish: true })).status).toBe(200);
    kagisoPhoto = shop.photoIds[0]!;
    await assignPhotos(staff, [kagisoPhoto], kagiso.id);
  });
  afterAll(async () => {
    await server?.close();
    await smsc?.stop();
  });

  const fromShop = () => ({ Origin: server.url });
  const recover = (client: Client, phone: unknown) => client.post('/api/students/recover', { phone }, fromShop());
  const smsTo = (phone: string) => smsc.messages.filter((message) => message.to === phone);
  const smsRows = (phone: string) => server.runtime.knex('outbox_messages').where({ recipient: phone, channel: 'sms' });

  it('the roster takes guardianPhone (JSON and CSV), stores E.164, shows it to staff; a bad one is a 400 naming the row and the column', async () => {
    expect(kagiso.guardianPhone).toBe(FAMILY);
    expect(lorato.guardianPhone).toBe(FAMILY);
    const listed = (await staff.get(`/api/albums/${shop.openAlbumId}/students`)).body as Student[];
    expect(listed.find((student) => student.id === kagiso.id)?.guardianPhone).toBe(FAMILY);

    const album = await createAlbum(server, shop.schoolId, { name: 'Class 4D' });
    const landline = await staff.post(`/api/albums/${album}/students`, { students: [{ name: 'Ok' }, { name: 'Bad', guardianPhone: '391 2345' }] });
    expect(landline.status).toBe(400);
    expect(landline.body.errors).toEqual({ 'rows.2': `Guardian phone (guardianPhone): ${PHONE_MSG.notMobile}` });

    const csv = 'Name,Student number,Guardian e-mail,Guardian phone\nAmo Kgosi,41,amo@example.test,71 555 123\nBoi Kgosi,42,,\n';
    const preview = rosterPreviewSchema.parse((await postCsv(staff, album, csv, '?dryRun=true')).body);
    expect(preview.rows.map((row) => [row.name, row.guardianPhone, row.error])).toEqual([
      ['Amo Kgosi', '+26771555123', null],
      ['Boi Kgosi', null, null],
    ]);
    const imported = await postCsv(staff, album, csv);
    expect(imported.status).toBe(201);
    expect(rosterImportResponseSchema.parse(imported.body).students.map((s) => [s.name, s.guardianPhone])).toEqual([
      ['Amo Kgosi', '+26771555123'],
      ['Boi Kgosi', null],
    ]);
    const bad = await postCsv(staff, album, 'name,phone\nCee Kgosi,12345\n');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ 'rows.2': `Guardian phone (guardianPhone): ${PHONE_MSG.invalid}` });

    // An edit sets, keeps (absent) and clears the number.
    const amo = rosterImportResponseSchema.parse(imported.body).students[0]!;
    expect((await staff.patch(`/api/students/${amo.id}`, { name: 'Amo Kgosi', guardianPhone: '72 000 111' })).body.guardianPhone).toBe('+26772000111');
    // A new code (or do not publish) leaves the row's number, e-mail and phone as they are.
    expect((await staff.patch(`/api/students/${amo.id}`, { newCode: true })).body).toMatchObject({ number: '41', guardianEmail: 'amo@example.test', guardianPhone: '+26772000111' });
    expect((await staff.patch(`/api/students/${amo.id}`, { doNotPublish: true })).body).toMatchObject({ number: '41', guardianEmail: 'amo@example.test', guardianPhone: '+26772000111' });
    const refused = await staff.patch(`/api/students/${amo.id}`, { guardianPhone: '391 2345' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ guardianPhone: PHONE_MSG.notMobile });
    expect((await staff.patch(`/api/students/${amo.id}`, { guardianPhone: null })).body.guardianPhone).toBeNull();
  });

  it('a known phone gets one SMS with each child\'s code link, and the links unlock those children', async () => {
    const family = new Client(server.url);
    const res = await recover(family, '74 000 111');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: CODE_RECOVERY_MSG.answer });
    expect(res.headers.get('cache-control')).toBe('no-store');
    await server.runtime.services.codeRecovery.settled();
    await expect.poll(() => smsTo(FAMILY).length, { timeout: 10_000 }).toBe(1);
    const { text, dataCoding } = smsTo(FAMILY)[0]!;
    expect(dataCoding).toBe(0);
    expect(smsSegments(text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    // The two children families may see now; not the one marked do not publish, not the draft class's.
    expect(text).toContain('Kagiso Dube');
    expect(text).toContain('Lorato Thabo-Dube');
    expect(text).toContain(kagiso.code);
    expect(text).toContain(lorato.code);
    expect(text).not.toContain(hidden.code);
    expect(text).not.toContain(drafted.code);
    expect(text).not.toContain('Mpho');
    const links = [...text.matchAll(/http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]+/g)].map((match) => match[0]);
    expect(links).toHaveLength(2);

    // Each link is the flyer's QR link: /code/{CODE}, which unlocks the child.
    const targets: string[] = [];
    for (const link of links) {
      const hop = await new Client(server.url).get(link.slice(server.url.length));
      expect(hop.status).toBe(302);
      targets.push(hop.headers.get('location')!);
    }
    expect(targets.sort()).toEqual([`${server.url}/code/${kagiso.code}`, `${server.url}/code/${lorato.code}`].sort());
    const code = targets.find((target) => target.endsWith(kagiso.code))!.split('/code/')[1]!;
    expect((await family.post('/api/students/verify', { code }, fromShop())).status).toBe(200);
    const photos = await family.get(`/api/students/${kagiso.id}/photos`);
    expect(photos.status).toBe(200);
    expect((photos.body as { id: number }[]).map((photo) => photo.id)).toContain(kagisoPhoto);
    expect(await smsRows(FAMILY)).toHaveLength(1);
    expect((await smsRows(FAMILY))[0]).toMatchObject({ kind: 'code_recovery', guardian_id: null });
  });

  it('an unknown phone gets exactly the same answer and nothing is sent; an invalid one is a 400 naming phone', async () => {
    const client = new Client(server.url);
    // Mpho Tau's guardian: on the class list.
    const known = await recover(client, '75 999 000');
    const unknown = await recover(client, '76 123 456');
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers.get('cache-control')).toBe(known.headers.get('cache-control'));
    await server.runtime.services.codeRecovery.settled();
    await server.runtime.services.outbox.deliverDue();
    await expect.poll(() => smsTo('+26775999000').length, { timeout: 10_000 }).toBe(1);
    expect(await smsRows('+26776123456')).toEqual([]);
    expect(smsTo('+26776123456')).toEqual([]);

    for (const [phone, message] of [
      ['391 2345', PHONE_MSG.notMobile],
      ['hello', PHONE_MSG.invalid],
      ['', PHONE_MSG.required],
    ] as const) {
      const res = await recover(client, phone);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ phone: message });
    }
  });

  it('only from the shop\'s own pages', async () => {
    const bare = await new Client(server.url).post('/api/students/recover', { phone: '74 000 111' });
    expect(bare.status).toBe(403);
    expect(bare.body).toMatchObject({ code: 'CROSS_SITE', message: CODE_RECOVERY_MSG.fromPage });
    const foreign = await new Client(server.url).post('/api/students/recover', { phone: '74 000 111' }, { Origin: 'https://elsewhere.example' });
    expect(foreign.status).toBe(403);
  });

  it('the flyer says "Lost your code? Get it by SMS" with the shop\'s address', async () => {
    const res = await staff.get(`/api/albums/${shop.openAlbumId}/flyers.pdf?student=${kagiso.id}`);
    expect(res.status).toBe(200);
    const page = (await pdfPagesText(res.body as Buffer))[0]!.replace(/\s+/g, ' ');
    expect(page).toContain(CODE_RECOVERY_MSG.flyerLost(new URL(server.url).host));
  });
});

describeApi('code recovery limits', () => {
  let smsc: TestSmsc;
  let server: TestServer;
  beforeAll(async () => {
    smsc = await startSmsc();
    server = await startTestServer({ SMS_URL: smsc.url });
  });
  afterAll(async () => {
    await server?.close();
    await smsc?.stop();
  });
  const recover = (phone: string) => new Client(server.url).post('/api/students/recover', { phone }, { Origin: server.url });

  it('per phone: a few an hour, then 429 with Retry-After, known or not', async () => {
    for (let i = 0; i < CODE_RECOVERY_LIMITS.perPhonePerHour; i++) expect((await recover('77 100 200')).status).toBe(202);
    const blocked = await recover('+267 77 100 200');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another number from the same client still goes through.
    expect((await recover('77 100 201')).status).toBe(202);
  });

  it('per client: 429 with Retry-After within 30 tries, every request counted', async () => {
    let tries = 0;
    let status = 0;
    let retryAfter: string | null = null;
    while (tries < 30) {
      tries++;
      const res = await recover(`77 2${String(tries).padStart(2, '0')} 000`);
      status = res.status;
      retryAfter = res.headers.get('retry-after');
      if (status === 429) break;
      expect(status).toBe(202);
    }
    expect(status).toBe(429);
    expect(tries).toBeLessThanOrEqual(30);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
