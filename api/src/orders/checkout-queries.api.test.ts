import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, describeApi, startTestServer, type TestServer } from '../../test/harness';
import { addPhoto, createShop, orderBody, parentFor, type Line, type Shop } from '../../test/shop';

/**
 * The database work of a checkout does not grow with the cart: placing an order and opening its
 * payment cost the same number of queries for one line as for ten, so a rush of parents with full
 * carts costs the database no more round trips than one with single photos.
 */
describeApi('checkout queries', () => {
  let server: TestServer;
  let shop: Shop;
  let parent: Client;
  let photoIds: number[];

  beforeAll(async () => {
    // The outbox's sender looks for due e-mails on its own timer; only the checkout's own statements are counted.
    server = await startTestServer({ OUTBOX_POLL_MS: '3600000' });
    shop = await createShop(server);
    parent = await parentFor(server, shop);
    photoIds = [...shop.photoIds];
    while (photoIds.length < 10) photoIds.push(await addPhoto(server, shop.openAlbumId, `IMG_${1000 + photoIds.length}.JPG`));
  });
  afterAll(async () => server.close());

  /** Every statement the server's database runs while the order is placed and its payment opened. */
  async function checkoutQueries(lines: Line[]): Promise<string[]> {
    // The e-mails of the checkout before (a set-password link) are sent first: the sender's work is not the checkout's.
    await server.runtime.services.outbox.deliverDue();
    const seen: string[] = [];
    // The checkout's mail is kicked off after its commit and may run while this listens: the sender's
    // own statements (its job lock, reading, claiming and marking outbox rows) are left out, timing
    // decides how many of them fall in; the checkout's writing of the message is counted.
    // The access version is read at most once a second by whichever request comes first
    // (docs/access.md, "The gallery cookie"): timing decides which checkout reads it, so it is left out too.
    const listener = (query: { sql: string }) => {
      if (isSenderStatement(query.sql) || /\baccess_version\b/.test(query.sql)) return;
      seen.push(query.sql);
    };
    server.runtime.knex.on('query', listener);
    try {
      const placed = await parent.post('/api/orders', orderBody(shop, lines));
      expect(placed.status).toBe(201);
      expect(placed.body.order.items).toHaveLength(lines.length);
      const paying = await new Client(server.url).post('/api/payment/initiate', { orderId: placed.body.order.id });
      expect(paying.body.success).toBe(true);
    } finally {
      server.runtime.knex.off('query', listener);
    }
    return seen;
  }

  function isSenderStatement(sql: string): boolean {
    if (/\b(GET_LOCK|RELEASE_LOCK)\(/i.test(sql)) return true;
    return /`outbox_messages`/.test(sql) && !/^insert into/i.test(sql) && !/`dedupe_key` = \?/.test(sql);
  }

  const cart = (count: number): Line[] =>
    photoIds.slice(0, count).map((photoId, i) => ({ photoId, albumId: shop.openAlbumId, product: i % 2 ? shop.digital : shop.print, quantity: 1 + (i % 3) }));

  it('runs as many queries for ten lines as for one', async () => {
    // A first checkout warms whatever is cached, so both measured ones start alike.
    await checkoutQueries(cart(1));
    const one = await checkoutQueries(cart(1));
    const ten = await checkoutQueries(cart(10));
    expect(one.length).toBeGreaterThan(0);
    expect(ten.length, `1 line:\n${one.join('\n')}\n\n10 lines:\n${ten.join('\n')}`).toBe(one.length);
  });

  it('neither reads back the order it just placed nor reads the order again for its coupon when opening the payment', async () => {
    const seen = await checkoutQueries(cart(4));
    // The order's answer is built from what its transaction wrote: only its lines' ids are read
    // back, and the order itself is read once more only by the payment's one query under its claim
    // (docs/performance.md, "Checkout tails on a warm server").
    expect(seen.filter((sql) => /^select .* from `orders`/i.test(sql)), seen.join('\n')).toHaveLength(1);
    expect(seen.filter((sql) => /\bfrom `order_packages`/.test(sql)), seen.join('\n')).toHaveLength(0);
    // 17 on both databases: 13 placing the order (3 reads, then its transaction of 10 counting
    // BEGIN and COMMIT) and 4 opening its payment (the claim, the order with its lines, the
    // payment, the claim's release); 20 before.
    expect(seen.length, seen.join('\n')).toBeLessThanOrEqual(17);
  });
});
