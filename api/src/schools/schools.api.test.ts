import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { staffSchoolSchema, publicSchoolSchema, schoolBySlugSchema } from '../../contract/schools';
import { MSG, STUDENT_MSG } from '../../contract/messages';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { createAlbum, createSchool, customerClient, insertOrder, insertPhotos, SCHOOL_PASSWORD, schoolInput } from './schools.test-helpers';

describeApi('schools (staff management and listings)', () => {
  let server: TestServer;
  let anon: Client;
  let admin: Client;
  let photographer: Client;
  let customer: Client;

  beforeAll(async () => {
    server = await startTestServer();
    anon = new Client(server.url);
    admin = await staffClient(server, 'admin');
    photographer = await staffClient(server, 'photographer');
    customer = await customerClient(server);
  });
  afterAll(() => server?.close());

  it('POST /api/schools: 401 without a token, 403 for a customer token', async () => {
    const unauthenticated = await anon.post('/api/schools', schoolInput());
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body.message).toBe(MSG.authRequired);
    const wrongRole = await customer.post('/api/schools', schoolInput());
    expect(wrongRole.status).toBe(403);
    expect(wrongRole.body.message).toBe(MSG.staffOnly);
  });

  it('POST /api/schools: 400 names the field with the spec text', async () => {
    const empty = await photographer.post('/api/schools', {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('School name is required');
    expect(empty.body.errors).toMatchObject({
      name: 'School name is required',
      slug: 'School slug is required',
      // A school_password school (the default) needs a password (issue 29: only that mode does).
      password: MSG.schoolPasswordRequired,
      contactEmail: 'Valid email is required',
    });

    const short = await photographer.post('/api/schools', schoolInput({ password: '12345' }));
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ message: 'Password must be at least 6 characters', errors: { password: 'Password must be at least 6 characters' } });

    const email = await photographer.post('/api/schools', schoolInput({ contactEmail: 'not-an-email' }));
    expect(email.status).toBe(400);
    expect(email.body.errors).toEqual({ contactEmail: 'Valid email is required' });

    const priceList = await photographer.post('/api/schools', schoolInput({ priceListId: 999999 }));
    expect(priceList.status).toBe(400);
    expect(priceList.body.errors).toEqual({ priceListId: MSG.priceListNotFound });
  });

  it('POST /api/schools: malformed JSON is a 400, not a 500', async () => {
    const res = await photographer.post('/api/schools', '{"name": "Broken', { 'Content-Type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MSG.malformedJson);
  });

  it('POST /api/schools: creates the school with an argon2id hash, never the plain password', async () => {
    const list = await admin.post('/api/price-lists', { name: 'Standard', products: [{ name: 'Print', price: '25' }] });
    expect(list.status).toBe(201);
    const input = schoolInput({
      name: '  Maru-a-Pula  ',
      slug: 'Maru-A-Pula',
      contactPhone: '+267 123 4567',
      address: 'Plot 1, Gaborone',
      closingDate: '2030-11-30',
      priceListId: list.body.id,
    });
    const res = await photographer.post('/api/schools', input);
    expect(res.status).toBe(201);
    expect(staffSchoolSchema.strict().parse(res.body)).toMatchObject({
      name: 'Maru-a-Pula',
      slug: 'maru-a-pula',
      contactEmail: input.contactEmail,
      contactPhone: '+267 123 4567',
      address: 'Plot 1, Gaborone',
      closingDate: '2030-11-30',
      priceListId: list.body.id,
      priceListName: 'Standard',
      albums: [],
    });
    expect(res.body).not.toHaveProperty('password');
    expect(res.body).not.toHaveProperty('passwordHash');

    const row = await server.runtime.knex('schools').where({ id: res.body.id }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$/);
    const params = (row.password_hash as string).split('$')[3]?.split(',').sort();
    expect(params).toEqual(['m=19456', 'p=1', 't=2']);
    expect(row.password_hash).not.toContain(input.password);
    expect(row.closing_date).toBe('2030-11-30');
    expect(row.slug).toBe('maru-a-pula');
  });

  it('POST /api/schools: 409 for a slug that is taken', async () => {
    const first = await createSchool(photographer);
    const res = await photographer.post('/api/schools', schoolInput({ slug: first.slug }));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(MSG.slugTaken);
  });

  it('GET /api/schools: visitors get id, name and slug only, sorted by name numeric-aware', async () => {
    const local = await startTestServer();
    try {
      const staff = await staffClient(local);
      for (const name of ['school 10', 'School 2', 'Acacia Primary']) await createSchool(staff, { name });
      const res = await new Client(local.url).get('/api/schools');
      expect(res.status).toBe(200);
      expect(res.body.map((s: { name: string }) => s.name)).toEqual(['Acacia Primary', 'School 2', 'school 10']);
      for (const school of res.body) expect(Object.keys(publicSchoolSchema.strict().parse(school)).sort()).toEqual(['id', 'name', 'slug']);

      const asCustomer = await (await customerClient(local)).get('/api/schools');
      expect(asCustomer.body[0]).not.toHaveProperty('contactEmail');
    } finally {
      await local.close();
    }
  });

  it('GET /api/schools: staff get contact details, price list name and albums with photo counts', async () => {
    const school = await createSchool(admin);
    const grade10 = await createAlbum(admin, school.id, 'Grade 10');
    await createAlbum(admin, school.id, 'grade 2', 'class-secret');
    await insertPhotos(server, grade10.id, 3);
    const res = await photographer.get('/api/schools');
    expect(res.status).toBe(200);
    const found = res.body.find((s: { id: number }) => s.id === school.id);
    expect(staffSchoolSchema.strict().parse(found).albums).toEqual([
      { id: expect.any(Number), name: 'grade 2', schoolId: school.id, hasPassword: true, photoCount: 0, status: 'published', publishAt: null, pendingReview: 0, archived: false },
      { id: grade10.id, name: 'Grade 10', schoolId: school.id, hasPassword: false, photoCount: 3, status: 'published', publishAt: null, pendingReview: 0, archived: false },
    ]);
    expect(res.headers.get('cache-control')).toContain('no-store');
  });

  it('GET /api/schools/by-id/:id: the ladder, then the staff detail', async () => {
    const school = await createSchool(admin);
    expect((await anon.get(`/api/schools/by-id/${school.id}`)).status).toBe(401);
    expect((await customer.get(`/api/schools/by-id/${school.id}`)).status).toBe(403);
    expect((await photographer.get('/api/schools/by-id/abc')).status).toBe(400);
    expect((await photographer.get('/api/schools/by-id/999999')).status).toBe(404);
    const res = await photographer.get(`/api/schools/by-id/${school.id}`);
    expect(res.status).toBe(200);
    expect(staffSchoolSchema.strict().parse(res.body)).toMatchObject({ id: school.id, slug: school.slug, albums: [] });
  });

  it('GET /api/schools/:slug: id, name, slug, closingDate, priceListId, contactEmail, accessMode and unlocked; JSON 404 when unknown', async () => {
    const school = await createSchool(admin, { closingDate: '2031-01-15' });
    const res = await anon.get(`/api/schools/${school.slug}`);
    expect(res.status).toBe(200);
    expect(schoolBySlugSchema.strict().parse(res.body)).toEqual({
      id: school.id,
      name: school.name,
      slug: school.slug,
      closingDate: '2031-01-15',
      priceListId: null,
      contactEmail: school.contactEmail,
      accessMode: 'school_password',
      unlocked: false,
    });
    expect((await photographer.get(`/api/schools/${school.slug}`)).body.unlocked).toBe(true);

    const missing = await anon.get('/api/schools/no-such-school');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/json');
    expect(missing.body.message).toBe(MSG.schoolNotFound);
  });

  it('PATCH /api/schools/:id: the ladder, then edits; a blank password keeps the old hash', async () => {
    const school = await createSchool(admin);
    expect((await anon.patch(`/api/schools/${school.id}`, { name: 'X' })).status).toBe(401);
    expect((await customer.patch(`/api/schools/${school.id}`, { name: 'X' })).status).toBe(403);
    const blankName = await photographer.patch(`/api/schools/${school.id}`, { name: ' ' });
    expect(blankName.status).toBe(400);
    expect(blankName.body.errors).toEqual({ name: 'School name is required' });
    expect((await photographer.patch('/api/schools/999999', { name: 'X' })).status).toBe(404);

    const before = await server.runtime.knex('schools').where({ id: school.id }).first('password_hash');
    const res = await photographer.patch(`/api/schools/${school.id}`, {
      name: 'Renamed School',
      password: '',
      closingDate: '2032-02-29',
      contactPhone: '',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed School', slug: school.slug, closingDate: '2032-02-29', contactPhone: null });
    const after = await server.runtime.knex('schools').where({ id: school.id }).first('password_hash', 'closing_date');
    expect(after.password_hash).toBe(before.password_hash);
    expect(after.closing_date).toBe('2032-02-29');

    const changed = await photographer.patch(`/api/schools/${school.id}`, { password: 'brand-new-pass' });
    expect(changed.status).toBe(200);
    const rehashed = await server.runtime.knex('schools').where({ id: school.id }).first('password_hash');
    expect(rehashed.password_hash).not.toBe(before.password_hash);
    expect(rehashed.password_hash).toMatch(/^\$argon2id\$/);

    const other = await createSchool(admin);
    const clash = await photographer.patch(`/api/schools/${school.id}`, { slug: other.slug });
    expect(clash.status).toBe(409);
  });

  it('PATCH /api/schools/:id: edits name, contact e-mail, closing date and price list with the creation rules, and rotates the password', async () => {
    const list = await admin.post('/api/price-lists', { name: `Season ${Date.now()}`, products: [{ name: 'Print 5x7', price: '60' }] });
    expect(list.status).toBe(201);
    const school = await createSchool(admin, { closingDate: '2031-03-01' });

    const bad = await photographer.patch(`/api/schools/${school.id}`, { contactEmail: 'office', closingDate: '1 March', password: '12345', priceListId: 999999 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toMatchObject({ contactEmail: MSG.validEmail, closingDate: 'Closing date must be a date (YYYY-MM-DD)', password: MSG.passwordMin });
    const noList = await photographer.patch(`/api/schools/${school.id}`, { priceListId: 999999 });
    expect(noList.status).toBe(400);
    expect(noList.body.errors).toEqual({ priceListId: MSG.priceListNotFound });

    const edited = await photographer.patch(`/api/schools/${school.id}`, {
      name: 'Renamed For The Season',
      contactEmail: 'New.Office@School.Example',
      closingDate: '2031-12-15',
      priceListId: list.body.id,
      password: 'season-two-pass',
    });
    expect(edited.status).toBe(200);
    expect(staffSchoolSchema.strict().parse(edited.body)).toMatchObject({
      name: 'Renamed For The Season',
      slug: school.slug,
      contactEmail: 'new.office@school.example',
      closingDate: '2031-12-15',
      priceListId: list.body.id,
      priceListName: list.body.name,
      accessMode: 'school_password',
      hasPassword: true,
    });
    // The old password no longer opens the school; the new one does.
    expect((await new Client(server.url).post(`/api/schools/${school.slug}/verify`, { password: SCHOOL_PASSWORD })).status).toBe(401);
    expect((await new Client(server.url).post(`/api/schools/${school.slug}/verify`, { password: 'season-two-pass' })).status).toBe(200);

    // Blank closing date and price list clear them.
    const cleared = await photographer.patch(`/api/schools/${school.id}`, { closingDate: '', priceListId: '' });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ closingDate: null, priceListId: null, priceListName: null });
    expect((await photographer.get(`/api/schools/by-id/${school.id}`)).body).toMatchObject({ name: 'Renamed For The Season', closingDate: null });
  });

  it('a student-codes school needs no password; a school-password school does, at creation and when switched', async () => {
    const passwordless = await photographer.post('/api/schools', schoolInput({ password: undefined }));
    expect(passwordless.status).toBe(400);
    expect(passwordless.body).toMatchObject({ message: MSG.schoolPasswordRequired, errors: { password: MSG.schoolPasswordRequired } });
    const blank = await photographer.post('/api/schools', schoolInput({ password: '', accessMode: 'school_password' }));
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual({ password: MSG.schoolPasswordRequired });

    const codes = await photographer.post('/api/schools', schoolInput({ password: '', accessMode: 'student_codes' }));
    expect(codes.status).toBe(201);
    expect(codes.body).toMatchObject({ accessMode: 'student_codes', hasPassword: false });
    expect((await server.runtime.knex('schools').where({ id: codes.body.id }).first('password_hash')).password_hash).toBeNull();
    // Its families are told to use their code, whatever password they try.
    const tried = await new Client(server.url).post(`/api/schools/${codes.body.slug}/verify`, { password: 'anything-at-all' });
    expect(tried.status).toBe(403);
    expect(tried.body).toMatchObject({ code: 'STUDENT_CODES_ONLY', message: STUDENT_MSG.schoolUsesCodes });

    // Other edits keep it as it is.
    expect((await photographer.patch(`/api/schools/${codes.body.id}`, { name: 'Codes School Renamed' })).status).toBe(200);
    // Only an admin switches the mode (docs/accounts.md, "What a photographer may not do").
    const notTheirs = await photographer.patch(`/api/schools/${codes.body.id}`, { accessMode: 'school_password', password: 'now-a-password' });
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body.message).toBe(MSG.adminOnlyAccessMode);
    // Switching to the school password without one on record asks for one; nothing changes.
    const switched = await admin.patch(`/api/schools/${codes.body.id}`, { accessMode: 'school_password' });
    expect(switched.status).toBe(400);
    expect(switched.body).toMatchObject({ message: MSG.schoolPasswordRequired, errors: { password: MSG.schoolPasswordRequired } });
    expect((await photographer.get(`/api/schools/by-id/${codes.body.id}`)).body).toMatchObject({ accessMode: 'student_codes', hasPassword: false });
    const withPassword = await admin.patch(`/api/schools/${codes.body.id}`, { accessMode: 'school_password', password: 'now-a-password' });
    expect(withPassword.status).toBe(200);
    expect(withPassword.body).toMatchObject({ accessMode: 'school_password', hasPassword: true });
    expect((await new Client(server.url).post(`/api/schools/${codes.body.slug}/verify`, { password: 'now-a-password' })).status).toBe(200);

    // A school with a password on record switches both ways without being asked again.
    expect((await admin.patch(`/api/schools/${codes.body.id}`, { accessMode: 'student_codes' })).body).toMatchObject({ accessMode: 'student_codes', hasPassword: true });
    expect((await admin.patch(`/api/schools/${codes.body.id}`, { accessMode: 'school_password' })).status).toBe(200);
    // Naming the mode it already has is no switch.
    expect((await photographer.patch(`/api/schools/${codes.body.id}`, { accessMode: 'school_password', name: 'Codes School Again' })).status).toBe(200);
  });

  it('DELETE /api/schools/:id: the ladder; removes the school, its classes and photos', async () => {
    const school = await createSchool(admin);
    const album = await createAlbum(admin, school.id, 'Grade 1');
    const keys = await insertPhotos(server, album.id, 2);
    expect((await anon.delete(`/api/schools/${school.id}`)).status).toBe(401);
    expect((await customer.delete(`/api/schools/${school.id}`)).status).toBe(403);
    // Admins only (docs/accounts.md, "What a photographer may not do").
    const byPhotographer = await photographer.delete(`/api/schools/${school.id}`);
    expect(byPhotographer.status).toBe(403);
    expect(byPhotographer.body.message).toBe(MSG.adminOnly);
    expect((await admin.delete('/api/schools/999999')).status).toBe(404);

    const removePhoto = vi.spyOn(server.runtime.media, 'removePhoto');
    const res = await admin.delete(`/api/schools/${school.id}`);
    expect(res.status).toBe(200);
    expect(removePhoto.mock.calls.map(([photo]) => photo.storageKey).sort()).toEqual([...keys].sort());
    removePhoto.mockRestore();
    const knex = server.runtime.knex;
    expect(await knex('schools').where({ id: school.id }).first()).toBeUndefined();
    expect(await knex('albums').where({ school_id: school.id })).toEqual([]);
    expect(await knex('photos').where({ album_id: album.id })).toEqual([]);
    expect((await anon.get(`/api/schools/${school.slug}`)).status).toBe(404);
  });

  it('DELETE /api/schools/:id: 409 with a clear message when the school has orders', async () => {
    const school = await createSchool(admin);
    await insertOrder(server, school.id);
    const res = await admin.delete(`/api/schools/${school.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(MSG.schoolHasOrders);
    expect(await server.runtime.knex('schools').where({ id: school.id }).first('id')).toBeDefined();
  });
});
