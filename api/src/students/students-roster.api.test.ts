import { afterAll, beforeAll, expect, it } from 'vitest';
import { MSG, STUDENT_MSG } from '../../contract/messages';
import { SAME_NAME_MSG } from '../../contract/same-names';
import { isStudentCode, normaliseStudentCode } from '../../contract/student-codes';
import { rosterImportResponseSchema, rosterPreviewSchema, studentSchema } from '../../contract/students';
import { Client, describeApi, staffClient, startWithVisitors, type TestServer } from '../../test/harness';
import { addPhoto } from '../../test/shop';
import { createAlbum, createSchool } from '../schools/schools.test-helpers';
import { addStudents, assignPhotos, postCsv } from './students.test-helpers';

describeApi('class rosters (POST/GET /api/albums/:id/students, PATCH/DELETE /api/students/:id)', () => {
  let server: TestServer;
  let staff: Client;
  let anon: Client;
  let customer: Client;
  beforeAll(async () => ({ server, staff, anon, customer } = await startWithVisitors('photographer')));
  afterAll(() => server?.close());

  async function newClass(name = 'Standard 4') {
    const school = await createSchool(staff);
    return createAlbum(staff, school.id, name);
  }
  const rowsInDb = async (albumId: number) => server.runtime.knex('students').where({ album_id: albumId }).orderBy('id');

  it('the ladder: 401 without a token, 403 for a customer, 404 for an unknown class, 415 for another body type', async () => {
    const album = await newClass();
    const body = { students: [{ name: 'Neo' }] };
    expect((await anon.post(`/api/albums/${album.id}/students`, body)).status).toBe(401);
    expect((await customer.post(`/api/albums/${album.id}/students`, body)).status).toBe(403);
    expect((await anon.get(`/api/albums/${album.id}/students`)).status).toBe(401);
    const missing = await staff.post('/api/albums/999999/students', body);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(MSG.classNotFound);
    const xml = await staff.request('POST', `/api/albums/${album.id}/students`, '<students/>', { 'Content-Type': 'application/xml' });
    expect(xml.status).toBe(415);
    expect(xml.body.message).toBe(STUDENT_MSG.rosterType);
    expect(await rowsInDb(album.id)).toEqual([]);
  });

  it('JSON rows become students with unique, well-formed private codes', async () => {
    const album = await newClass();
    const res = await staff.post(`/api/albums/${album.id}/students`, {
      students: [
        { name: '  Kagiso Dube ', number: '1001', guardianEmail: 'Mother@Example.COM' },
        { name: 'Neo Molefe', number: 1002 },
        { name: 'Lorato Sebina' },
      ],
    });
    expect(res.status).toBe(201);
    const { students } = rosterImportResponseSchema.strict().parse(res.body);
    expect(students.map((s) => [s.name, s.number, s.guardianEmail, s.albumId, s.doNotPublish, s.photoCount])).toEqual([
      ['Kagiso Dube', '1001', 'mother@example.com', album.id, false, 0],
      ['Neo Molefe', '1002', null, album.id, false, 0],
      ['Lorato Sebina', null, null, album.id, false, 0],
    ]);
    for (const student of students) {
      expect(student.code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
      expect(isStudentCode(normaliseStudentCode(student.code))).toBe(true);
    }
    expect(new Set(students.map((s) => s.code)).size).toBe(3);
    // Stored without the dash, so staff can reprint exactly what was printed.
    const rows = await rowsInDb(album.id);
    expect(rows.map((row) => row.code)).toEqual(students.map((s) => s.code.replace('-', '')));

    const list = await staff.get(`/api/albums/${album.id}/students`);
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toContain('no-store');
    expect(list.body.map((s: { name: string }) => s.name)).toEqual(['Kagiso Dube', 'Lorato Sebina', 'Neo Molefe']);
    for (const student of list.body) studentSchema.strict().parse(student);
  });

  it('CSV with a header row in any column order, semicolons, quotes, a BOM and Setswana names kept exactly', async () => {
    const album = await newClass();
    // "Ṱhabo" arrives decomposed (T + combining circumflex below): it is stored composed (NFC).
    const decomposed = 'Nthabiseng T\u032Dhabo';
    const csv = `\uFEFFGuardian Email;Student Number;Name\r\nmma.mosweu@example.com;S-01;Kgalalelo Mosweu\r\n;S-02;"Dube; Kagiso"\r\n;S-03;${decomposed}\r\n\r\n;;Zoë Letsholo\r\n`;
    const res = await postCsv(staff, album.id, csv);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.students.map((s: { name: string; number: string | null; guardianEmail: string | null }) => [s.name, s.number, s.guardianEmail])).toEqual([
      ['Kgalalelo Mosweu', 'S-01', 'mma.mosweu@example.com'],
      ['Dube; Kagiso', 'S-02', null],
      ['Nthabiseng Ṱhabo', 'S-03', null],
      ['Zoë Letsholo', null, null],
    ]);
    const stored = (await rowsInDb(album.id)).map((row) => row.name);
    expect(stored).toContain('Nthabiseng \u1E70habo');
    expect(stored).toContain('Zoë Letsholo');
  });

  it('CSV without a header: name, number, e-mail by position; "name, e-mail" is read as such', async () => {
    const album = await newClass();
    const res = await postCsv(staff, album.id, 'Onalenna Kgosi,77,dad@example.com\nMpho Tau,neo.tau@example.com\nBoitumelo Pule\n');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.students.map((s: { name: string; number: string | null; guardianEmail: string | null }) => [s.name, s.number, s.guardianEmail])).toEqual([
      ['Onalenna Kgosi', '77', 'dad@example.com'],
      ['Mpho Tau', null, 'neo.tau@example.com'],
      ['Boitumelo Pule', null, null],
    ]);
  });

  it('bad rows are reported per row with a reason, and nothing at all is imported', async () => {
    const album = await newClass();
    await addStudents(staff, album.id, ['Already Here']);
    await staff.post(`/api/albums/${album.id}/students`, { students: [{ name: 'Numbered One', number: 'N1' }] });
    const csv = [
      'Name,Number,Email',
      'Good Child,10,',
      ',11,', // line 3: no name
      'Bad Mail,12,not-an-email', // line 4
      'Twin Copy,10,', // line 5: number used on line 2
      'Good Child,,', // line 6: the name of line 2, without a number to tell them apart
      'Good Child,,', // line 7: the same again
      'already here,,', // line 8: a child of this name is in the class already
      'Someone Else,N1,', // line 9: the class has N1
      `${'x'.repeat(151)},,`, // line 10: too long
    ].join('\n');
    const before = await rowsInDb(album.id);
    const res = await postCsv(staff, album.id, csv);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ROSTER_INVALID');
    expect(res.body.message).toBe(STUDENT_MSG.rosterHasErrors(8));
    expect(res.body.errors).toEqual({
      'rows.3': STUDENT_MSG.nameRequired,
      'rows.4': MSG.validEmail,
      'rows.5': STUDENT_MSG.duplicateNumberInFile(2),
      'rows.6': SAME_NAME_MSG.sameNameInFile(2),
      'rows.7': SAME_NAME_MSG.sameNameInFile(2),
      'rows.8': SAME_NAME_MSG.sameNameInClass,
      'rows.9': STUDENT_MSG.numberTaken,
      'rows.10': STUDENT_MSG.nameTooLong,
    });
    expect(await rowsInDb(album.id)).toEqual(before);

    const json = await staff.post(`/api/albums/${album.id}/students`, { students: [{ name: 'Fine' }, { name: '   ' }, { name: 'Fine' }] });
    expect(json.status).toBe(400);
    expect(json.body.errors).toEqual({ 'rows.2': STUDENT_MSG.nameRequired, 'rows.3': SAME_NAME_MSG.sameNameInFile(1) });
    expect(await rowsInDb(album.id)).toEqual(before);
  });

  it('two children with the same name come in when their numbers tell them apart, and are told how otherwise', async () => {
    const album = await newClass();
    // Same name, no numbers: each row says how to tell them apart; nothing is imported.
    const plain = await postCsv(staff, album.id, 'Name,Number\nNeo Kgosi,\nNeo Kgosi,\n');
    expect(plain.status).toBe(400);
    expect(plain.body.errors).toEqual({ 'rows.3': SAME_NAME_MSG.sameNameInFile(2) });
    expect(plain.body.errors['rows.3']).toContain('Add a student number or a second name');
    // Same name, one number: still not told apart.
    const half = await postCsv(staff, album.id, 'Name,Number\nNeo Kgosi,12\nneo  kgosi,\n');
    expect(half.body.errors).toEqual({ 'rows.3': SAME_NAME_MSG.sameNameInFile(2) });
    // The same name with two numbers: both come in, and the preview finds nothing wrong.
    const preview = await postCsv(staff, album.id, 'Name,Number\nNeo Kgosi,12\nNeo Kgosi,31\n', '?dryRun=true');
    expect(preview.body.valid).toBe(true);
    const twins = await postCsv(staff, album.id, 'Name,Number\nNeo Kgosi,12\nNeo Kgosi,31\n');
    expect(twins.status).toBe(201);
    expect((await rowsInDb(album.id)).map((row: { name: string; number: string | null }) => [row.name, row.number])).toEqual([
      ['Neo Kgosi', '12'],
      ['Neo Kgosi', '31'],
    ]);
    // A third Neo Kgosi: with a new number he comes in; without one he is told how.
    const third = await staff.post(`/api/albums/${album.id}/students`, { students: [{ name: 'Neo Kgosi' }] });
    expect(third.body.errors).toEqual({ 'rows.1': SAME_NAME_MSG.sameNameInClass });
    expect((await staff.post(`/api/albums/${album.id}/students`, { students: [{ name: 'Neo Kgosi', number: '44' }] })).status).toBe(201);
    // A second name is another name.
    expect((await staff.post(`/api/albums/${album.id}/students`, { students: [{ name: 'Neo Kgosi Molefe' }] })).status).toBe(201);
  });

  it('?dryRun=true previews every row with its problem and imports nothing', async () => {
    const album = await newClass();
    const res = await postCsv(staff, album.id, 'name,email\nKabo Ramotswe,\n,x@example.com\nTsholo,bad\n', '?dryRun=true');
    expect(res.status).toBe(200);
    expect(rosterPreviewSchema.strict().parse(res.body)).toEqual({
      valid: false,
      rows: [
        { row: 2, name: 'Kabo Ramotswe', number: null, guardianEmail: null, guardianPhone: null, error: null },
        { row: 3, name: '', number: null, guardianEmail: 'x@example.com', guardianPhone: null, error: STUDENT_MSG.nameRequired },
        { row: 4, name: 'Tsholo', number: null, guardianEmail: 'bad', guardianPhone: null, error: MSG.validEmail },
      ],
    });
    const good = await postCsv(staff, album.id, 'Kabo Ramotswe\n', '?dryRun=true');
    expect(good.body.valid).toBe(true);
    expect(await rowsInDb(album.id)).toEqual([]);
  });

  it('empty, unreadable, non-UTF-8 and oversized rosters get clear 400/413 answers', async () => {
    const album = await newClass();
    const empty = await postCsv(staff, album.id, '\n\n');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe(STUDENT_MSG.rosterEmpty);
    const headerOnly = await postCsv(staff, album.id, 'Name,Number\n');
    expect(headerOnly.body.message).toBe(STUDENT_MSG.rosterEmpty);
    const broken = await postCsv(staff, album.id, 'Name\n"Unclosed quote\n');
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe(STUDENT_MSG.rosterUnreadable);
    const noRows = await staff.post(`/api/albums/${album.id}/students`, { students: [] });
    expect(noRows.status).toBe(400);
    expect(noRows.body.message).toBe(STUDENT_MSG.rosterEmpty);

    // Excel's legacy "CSV" is Windows-1252: é as a single 0xE9 byte is not UTF-8.
    const latin1 = await fetch(`${server.url}/api/albums/${album.id}/students`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${staff.token}`, 'Content-Type': 'text/csv' },
      body: Buffer.from([0x52, 0x65, 0x6e, 0xe9, 0x0a]),
    });
    expect(latin1.status).toBe(400);
    expect((await latin1.json()).message).toBe(STUDENT_MSG.rosterNotUtf8);

    const huge = await postCsv(staff, album.id, `Name\n${'Child Name\n'.repeat(30_000)}`);
    expect(huge.status).toBe(413);
    expect(huge.body.message).toBe(STUDENT_MSG.rosterTooLarge);
    expect(await rowsInDb(album.id)).toEqual([]);
  });

  it('PATCH edits name, number, e-mail and "do not publish"; a number taken in the class is a 409', async () => {
    const album = await newClass();
    const [kabo, neo] = await addStudents(staff, album.id, ['Kabo', 'Neo']);
    expect((await anon.patch(`/api/students/${kabo!.id}`, { name: 'X' })).status).toBe(401);
    expect((await customer.patch(`/api/students/${kabo!.id}`, { name: 'X' })).status).toBe(403);
    expect((await staff.patch('/api/students/999999', { name: 'X' })).status).toBe(404);
    const blank = await staff.patch(`/api/students/${kabo!.id}`, { name: ' ' });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual({ name: STUDENT_MSG.nameRequired });

    const res = await staff.patch(`/api/students/${kabo!.id}`, { name: 'Kabo Ramotswe', number: '7', guardianEmail: 'p@example.com', doNotPublish: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Kabo Ramotswe', number: '7', guardianEmail: 'p@example.com', doNotPublish: true, code: kabo!.code });
    const taken = await staff.patch(`/api/students/${neo!.id}`, { number: '7' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(STUDENT_MSG.numberTaken);
    // Clearing do not publish is an admin's (docs/accounts.md, "What a photographer may not do").
    expect((await staff.patch(`/api/students/${kabo!.id}`, { number: '', guardianEmail: null, doNotPublish: false })).body.code).toBe('ADMIN_ONLY');
    const cleared = await (await staffClient(server, 'admin')).patch(`/api/students/${kabo!.id}`, { number: '', guardianEmail: null, doNotPublish: false });
    expect(cleared.body).toMatchObject({ number: null, guardianEmail: null, doNotPublish: false });
  });

  it('PATCH newCode replaces a lost code: the old one stops working at once, also on devices it already opened', async () => {
    const album = await newClass();
    const [kabo] = await addStudents(staff, album.id, ['Kabo']);
    const photoId = await addPhoto(server, album.id, 'IMG_0001.JPG');
    await assignPhotos(staff, [photoId], kabo!.id);
    // A device that found the lost flyer unlocks the child before the school replaces the code.
    const finder = new Client(server.url);
    expect((await finder.post('/api/students/verify', { code: kabo!.code })).status).toBe(200);
    expect((await finder.get(`/api/students/${kabo!.id}/photos`)).status).toBe(200);
    expect((await finder.get(`/api/images/${photoId}/thumbnail`)).status).toBe(200);

    const res = await staff.patch(`/api/students/${kabo!.id}`, { newCode: true });
    expect(res.status).toBe(200);
    expect(res.body.code).not.toBe(kabo!.code);
    const family = new Client(server.url);
    expect((await family.post('/api/students/verify', { code: kabo!.code })).status).toBe(401);
    expect((await family.post('/api/students/verify', { code: res.body.code })).status).toBe(200);
    expect((await family.get(`/api/students/${kabo!.id}/photos`)).status).toBe(200);

    // The finder's cookie still names the child, but with the old code: it opens nothing now.
    expect((await finder.get(`/api/students/${kabo!.id}/photos`)).status).toBe(401);
    expect((await finder.get(`/api/images/${photoId}/thumbnail`)).status).toBe(404);
    expect((await finder.get(`/api/albums/${album.id}/photos`)).status).toBe(401);
    expect((await finder.get('/api/students/unlocked')).body).toEqual([]);
  });

  it('DELETE removes a student without photos; one with photos is a 409 so their photos never become group photos', async () => {
    const album = await newClass();
    const [kabo, neo] = await addStudents(staff, album.id, ['Kabo', 'Neo']);
    const photoId = await addPhoto(server, album.id, 'IMG_0001.JPG');
    await assignPhotos(staff, [photoId], neo!.id);
    expect((await anon.delete(`/api/students/${kabo!.id}`)).status).toBe(401);
    expect((await staff.delete(`/api/students/${kabo!.id}`)).status).toBe(200);
    expect((await staff.delete(`/api/students/${kabo!.id}`)).status).toBe(404);
    const refused = await staff.delete(`/api/students/${neo!.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(STUDENT_MSG.studentHasPhotos);
    const photo = await server.runtime.knex('photos').where({ id: photoId }).first('student_id');
    expect(Number(photo.student_id)).toBe(neo!.id);
    expect((await staff.get(`/api/albums/${album.id}/students`)).body.map((s: { name: string; photoCount: number }) => [s.name, s.photoCount])).toEqual([['Neo', 1]]);
  });

  it('deleting a class takes its roster with it', async () => {
    const album = await newClass();
    await addStudents(staff, album.id, ['Kabo', 'Neo']);
    expect((await (await staffClient(server, 'admin')).delete(`/api/albums/${album.id}`)).status).toBe(200);
    expect(await rowsInDb(album.id)).toEqual([]);
  });
});
