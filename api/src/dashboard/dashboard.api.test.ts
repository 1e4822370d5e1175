import { afterAll, beforeAll, expect, it } from 'vitest';
import { dashboardStatsSchema } from '../../contract/dashboard';
import { Client, describeApi, startWithStaff, type TestServer } from '../../test/harness';
import { createAlbum, createSchool, customerClient, insertOrder, insertPhotos } from '../schools/schools.test-helpers';

describeApi('GET /api/dashboard/stats', () => {
  let server: TestServer;
  let staff: Client;
  beforeAll(async () => ({ server, staff } = await startWithStaff('photographer')));
  afterAll(() => server?.close());

  it('401 without a token, 403 for a customer token', async () => {
    expect((await new Client(server.url).get('/api/dashboard/stats')).status).toBe(401);
    expect((await (await customerClient(server)).get('/api/dashboard/stats')).status).toBe(403);
  });

  it('zeros on an empty database', async () => {
    const res = await staff.get('/api/dashboard/stats');
    expect(res.status).toBe(200);
    expect(dashboardStatsSchema.strict().parse(res.body)).toEqual({ totalPhotos: 0, activeOrders: 0, totalRevenue: '0.00', totalSchools: 0, packagesWaitingForPhotos: 0, packagesWithoutPhoto: 0 });
  });

  it('counts photos, schools, active orders and revenue from completed payments only', async () => {
    const first = await createSchool(staff);
    const second = await createSchool(staff);
    await insertPhotos(server, (await createAlbum(staff, first.id, 'Grade 1')).id, 3);
    await insertPhotos(server, (await createAlbum(staff, second.id, 'Grade 2')).id, 2);
    await insertOrder(server, first.id, { orderStatus: 'paid', paymentStatus: 'completed', totalThebe: 2500 });
    await insertOrder(server, first.id, { orderStatus: 'being_processed', paymentStatus: 'completed', totalThebe: 4050 });
    await insertOrder(server, second.id, { orderStatus: 'at_printers', paymentStatus: 'completed', totalThebe: 1500 });
    await insertOrder(server, second.id, { orderStatus: 'delivered', paymentStatus: 'completed', totalThebe: 12000 });
    await insertOrder(server, second.id, { orderStatus: 'pending', paymentStatus: 'pending', totalThebe: 9999 });
    await insertOrder(server, second.id, { orderStatus: 'pending', paymentStatus: 'failed', totalThebe: 7777 });

    const res = await staff.get('/api/dashboard/stats');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ totalPhotos: 5, activeOrders: 3, totalRevenue: '200.50', totalSchools: 2, packagesWaitingForPhotos: 0, packagesWithoutPhoto: 0 });
  });
});
