/** Fixtures for the print batch suites: photos with distinct bytes, orders paid through the sandbox. */
import sharp from 'sharp';
import { expect } from 'vitest';
import type { Client, TestServer } from '../../test/harness';
import { orderBody, payThroughSandbox, waitUntil, type Line, type Shop } from '../../test/shop';
import { addPhoto as storePhoto, createAlbum } from '../../test/fixtures';

/** A JPEG whose bytes differ from every other seed's, so a mix-up between files would show. */
export async function distinctJpeg(seed: number): Promise<Buffer> {
  const colour = { r: (seed * 53) % 256, g: (seed * 97) % 256, b: (seed * 31) % 256 };
  return sharp({ create: { width: 160 + (seed % 7) * 8, height: 120, channels: 3, background: colour } })
    .composite([{ input: Buffer.from(`<svg width="160" height="120"><text x="10" y="60" font-size="40">${seed}</text></svg>`), top: 0, left: 0 }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Stores a photo in the album through the media service, as an upload would, and keeps its bytes. */
export async function addPhoto(server: TestServer, albumId: number, originalName: string, bytes: Buffer): Promise<{ id: number; bytes: Buffer }> {
  return { id: await storePhoto(server, albumId, originalName, bytes), bytes };
}

export async function addAlbum(server: TestServer, schoolId: number, name: string): Promise<number> {
  return createAlbum(server, schoolId, { name });
}

/** Places the order a parent's browser would and returns its id (still pending payment). */
export async function placeOrder(parent: Client, shop: Shop, lines: Line[], overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await parent.post('/api/orders', orderBody(shop, lines, overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.order.id as string;
}

/** Pays through the sandbox gateway and waits until the order is settled either way. */
export async function pay(server: TestServer, orderId: string, card?: string): Promise<void> {
  await payThroughSandbox(server, orderId, card ? { card } : {});
  await waitUntil(async () => {
    const row = await server.runtime.knex('orders').where({ id: orderId }).first('payment_status');
    return row?.payment_status !== 'pending';
  });
}

export async function paidOrder(server: TestServer, parent: Client, shop: Shop, lines: Line[], overrides: Record<string, unknown> = {}): Promise<string> {
  const id = await placeOrder(parent, shop, lines, overrides);
  await pay(server, id);
  return id;
}

export async function orderStatus(server: TestServer, orderId: string): Promise<string> {
  return (await server.runtime.knex('orders').where({ id: orderId }).first('order_status')).order_status;
}
