/**
 * Test data for every API suite, in one place: schools, classes (albums), photos, price lists,
 * customers, staff and orders, plus the few changes a test makes behind the API's back (a payment
 * made long ago, a school renamed, a small thumbnail that was never made). Only this module spells
 * out table columns; a suite calls these functions and reads its assertions through the API (or,
 * where a test checks what was stored, through the database itself).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { Client } from './client';
import type { TestServer } from './harness';
import { solidJpeg } from './images';
import { hashPassword } from '../src/http/passwords';
import { insertedId } from '../src/db/knex';
import { originalNumberOf } from '../src/photos/original-number';
import { createPhotoRepository } from '../src/photos/photos.repository';
import { newStudentCode } from '../src/students/student-code';
import { STUDENT_CODE_ALPHABET, STUDENT_CODE_LENGTH } from '../contract/student-codes';

const db = (server: TestServer): Knex => server.runtime.knex;
const tag = () => randomBytes(4).toString('hex');

// Price lists

export interface PriceListItemInput {
  productName: string;
  description?: string;
  priceThebe: number;
  /** 'print' unless told (docs/money-and-pricing.md, "Print and digital products"). */
  kind?: 'print' | 'digital';
}

/** A price list with its items in the order given; returns the list's id and each item's id. */
export async function createPriceList(server: TestServer, name: string, items: PriceListItemInput[] = []): Promise<{ id: number; itemIds: number[] }> {
  const at = Date.now();
  const id = insertedId(await db(server)('price_lists').insert({ name, description: '', created_at: at, updated_at: at }));
  const itemIds: number[] = [];
  for (const [position, item] of items.entries()) itemIds.push(await addPriceListItem(server, id, item, position));
  return { id, itemIds };
}

export async function addPriceListItem(server: TestServer, priceListId: number, item: PriceListItemInput, position: number): Promise<number> {
  return insertedId(
    await db(server)('price_list_items').insert({
      price_list_id: priceListId,
      product_type: item.productName,
      description: item.description ?? null,
      price_thebe: item.priceThebe,
      kind: item.kind ?? 'print',
      position,
    }),
  );
}

export interface PackageFixture {
  name: string;
  priceThebe: number;
  /** null: as many different photos as it has content rows. */
  maxPoses?: number | null;
  /** Price list items of the same list (their ids) and how many of each, in order. */
  items: { itemId: number; quantity: number }[];
}

/** A package of the price list (docs/packages-and-coupons.md, "Packages"); returns its id. */
export async function addPackage(server: TestServer, priceListId: number, input: PackageFixture, position = 0): Promise<number> {
  const id = insertedId(
    await db(server)('price_list_packages').insert({ price_list_id: priceListId, name: input.name, description: '', price_thebe: input.priceThebe, max_poses: input.maxPoses ?? null, position }),
  );
  await db(server)('price_list_package_items').insert(input.items.map((item, index) => ({ package_id: id, price_list_item_id: item.itemId, quantity: item.quantity, position: index })));
  return id;
}

/** The price list's family discount (docs/packages-and-coupons.md, "Family pricing"), or none. */
export async function setSiblingDiscount(server: TestServer, priceListId: number, discount: { percent: number; maxChildren: number } | null): Promise<void> {
  await db(server)('price_lists')
    .where({ id: priceListId })
    .update({ sibling_percent: discount?.percent ?? null, sibling_max_children: discount?.maxChildren ?? null });
}

/** A child on the class list and the photos that are of that child; returns the child's id. */
export async function addChildWithPhotos(server: TestServer, albumId: number, name: string, photoIds: number[]): Promise<number> {
  const at = Date.now();
  const id = insertedId(await db(server)('students').insert({ album_id: albumId, name, code: randomBytes(6).toString('hex').toUpperCase().slice(0, 8), created_at: at, updated_at: at }));
  if (photoIds.length > 0) await db(server)('photos').whereIn('id', photoIds).update({ student_id: id });
  return id;
}

/**
 * The family in this browser types the child's code (POST /api/students/verify, docs/access.md,
 * "Student codes"): it then holds the child by code. A child without a well-formed code (as
 * addChildWithPhotos makes them) is given one first, once, so other families holding it keep it; returns the code.
 */
export async function holdChildByCode(server: TestServer, family: Client, studentId: number): Promise<string> {
  const current = ((await db(server)('students').where({ id: studentId }).first('code')) as { code: string | null } | undefined)?.code ?? '';
  const wellFormed = current.length === STUDENT_CODE_LENGTH && [...current].every((symbol) => STUDENT_CODE_ALPHABET.includes(symbol));
  const code = wellFormed ? current : newStudentCode();
  if (!wellFormed) await db(server)('students').where({ id: studentId }).update({ code });
  const res = await family.post('/api/students/verify', { code }, { Origin: server.url });
  if (res.status !== 200) throw new Error(`student verify failed: ${res.status} ${JSON.stringify(res.body)}`);
  return code;
}

// Schools and classes

export interface SchoolInput {
  name?: string;
  slug?: string;
  /** Stored hashed, so parents can unlock the school with it. */
  password?: string;
  /** Stored as is, for suites that never unlock the school. */
  passwordHash?: string;
  contactEmail?: string;
  /** YYYY-MM-DD, or null for no closing date. */
  closingDate?: string | null;
  priceListId?: number | null;
}

/** A school row; without a name or slug it gets unique ones. */
export async function createSchool(server: TestServer, input: SchoolInput = {}): Promise<{ id: number; name: string; slug: string }> {
  const t = tag();
  const name = input.name ?? `School ${t}`;
  const slug = input.slug ?? `school-${t}`;
  const passwordHash = input.passwordHash ?? (input.password !== undefined ? await hashPassword(input.password) : 'not-used-by-these-tests');
  const row: Record<string, unknown> = {
    name,
    slug,
    password_hash: passwordHash,
    contact_email: input.contactEmail ?? `office-${t}@school.example`,
    created_at: Date.now(),
  };
  if (input.closingDate !== undefined) row.closing_date = input.closingDate;
  if (input.priceListId !== undefined) row.price_list_id = input.priceListId;
  const id = insertedId(await db(server)('schools').insert(row));
  return { id, name, slug };
}

/** Changes a school behind the API's back: a name the API would refuse, or any closing date. */
export async function updateSchool(server: TestServer, schoolId: number, changes: { name?: string; closingDate?: string | null }): Promise<void> {
  const row: Record<string, unknown> = {};
  if (changes.name !== undefined) row.name = changes.name;
  if (changes.closingDate !== undefined) row.closing_date = changes.closingDate;
  await db(server)('schools').where({ id: schoolId }).update(row);
}

export interface AlbumInput {
  name: string;
  /** Stored hashed, so parents can unlock the class with it. */
  password?: string;
  /** Stored as is, for suites that never unlock the class. */
  passwordHash?: string;
}

/** A class (album) of the school; open unless it gets a password. */
export async function createAlbum(server: TestServer, schoolId: number, input: AlbumInput): Promise<number> {
  const passwordHash = input.passwordHash ?? (input.password !== undefined ? await hashPassword(input.password) : null);
  return insertedId(await db(server)('albums').insert({ school_id: schoolId, name: input.name, password_hash: passwordHash, created_at: Date.now() }));
}

// Photos

/**
 * Stores a photo in the album through the media service and the photo repository, as an upload would
 * (original, thumbnails and preview on the storage), from `bytes` or a plain 320x240 JPEG.
 */
export async function addPhoto(server: TestServer, albumId: number, originalName: string, bytes?: Buffer): Promise<number> {
  const { media } = server.runtime;
  await fs.mkdir(media.tmpDir, { recursive: true });
  const file = path.join(media.tmpDir, `fixture-${randomUUID()}`);
  const data = bytes ?? (await solidJpeg(320, 240, '#4a8'));
  await fs.writeFile(file, data);
  const stored = await media.ingestPhoto({ path: file, originalName, size: data.length });
  const [photo] = await createPhotoRepository(db(server)).insertMany([{ albumId, originalName, originalNumber: originalNumberOf(originalName), stored }]);
  return photo!.id;
}

/** Photo rows without files (IMG_1000.JPG, IMG_1001.JPG, ...): enough for counts and deletes. Returns their storage keys. */
export async function insertPhotoRows(server: TestServer, albumId: number, howMany: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < howMany; i++) {
    const key = randomBytes(16).toString('hex');
    keys.push(key);
    await db(server)('photos').insert({
      album_id: albumId,
      filename: `${key}.jpg`,
      storage_key: key,
      original_name: `IMG_${1000 + i}.JPG`,
      original_number: String(1000 + i),
      file_size: 1234,
      mime_type: 'image/jpeg',
      width: 60,
      height: 40,
      thumb_width: 60,
      thumb_height: 40,
      thumb_etag: 'etag',
      preview_etag: 'etag',
      created_at: Date.now(),
    });
  }
  return keys;
}

/** Where a photo's original is kept, to take it away from storage behind the API's back. */
export async function storedOriginalOf(server: TestServer, photoId: number): Promise<{ storageKey: string; mimeType: string }> {
  const row = await db(server)('photos').where({ id: photoId }).first('storage_key', 'mime_type');
  if (!row) throw new Error(`no photo ${photoId}`);
  return { storageKey: row.storage_key, mimeType: row.mime_type };
}

/**
 * A photo stored before small thumbnails existed: no small thumbnail recorded. With
 * `etagOnly` its size stays and only the etag is gone.
 */
export async function forgetSmallThumbnail(server: TestServer, photoId: number, options: { etagOnly?: boolean } = {}): Promise<void> {
  const changes = options.etagOnly ? { small_thumb_etag: null } : { small_thumb_width: null, small_thumb_height: null, small_thumb_etag: null };
  await db(server)('photos').where({ id: photoId }).update(changes);
}

// People

export interface CustomerInput {
  email?: string;
  /** Stored hashed; without one the account has no password yet. */
  password?: string;
  firstName?: string;
  lastName?: string;
}

/** A parent's account; returns its id. */
export async function createCustomer(server: TestServer, input: CustomerInput = {}): Promise<number> {
  return insertedId(
    await db(server)('customers').insert({
      email: input.email ?? `parent-${tag()}@example.test`,
      password_hash: input.password !== undefined ? await hashPassword(input.password) : null,
      first_name: input.firstName ?? 'Pat',
      last_name: input.lastName ?? 'Parent',
      created_at: Date.now(),
    }),
  );
}

/** A client holding a signed-in parent's token: staff routes must answer it with 403. */
export async function customerClient(server: TestServer): Promise<Client> {
  const id = await createCustomer(server);
  return new Client(server.url, server.runtime.tokens.signCustomer({ id }));
}

/** Makes a reset link expired, as if it had been mailed long ago. */
export async function expireResetToken(server: TestServer, tokenHash: string): Promise<void> {
  await db(server)('password_reset_tokens').where({ token_hash: tokenHash }).update({ expires_at: Date.now() - 1 });
}

export interface StaffInput {
  email: string;
  password: string;
  role: 'admin' | 'photographer';
  firstName?: string;
  lastName?: string;
}

/** A staff account; returns its id. */
export async function createStaff(server: TestServer, input: StaffInput): Promise<number> {
  return insertedId(
    await db(server)('staff').insert({
      email: input.email,
      password_hash: await hashPassword(input.password),
      first_name: input.firstName ?? 'Test',
      last_name: input.lastName ?? input.role,
      role: input.role,
      created_at: Date.now(),
    }),
  );
}

/** A staff account removed behind the API's back (the last admin can be, too). */
export async function deleteStaff(server: TestServer, staffId: number): Promise<void> {
  await db(server)('staff').where({ id: staffId }).delete();
}

// Orders and payments

export interface OrderInput {
  totalThebe?: number;
  orderStatus?: string;
  paymentStatus?: string;
}

/** An order row without items or customer (Pat Parent, student Kim, P25.00, pending); returns its id. */
export async function insertOrder(server: TestServer, schoolId: number, input: OrderInput = {}): Promise<string> {
  const id = randomBytes(5).toString('hex').toUpperCase();
  await db(server)('orders').insert({
    id,
    school_id: schoolId,
    customer_name: 'Pat Parent',
    customer_email: 'pat@example.test',
    student_name: 'Kim',
    total_thebe: input.totalThebe ?? 2500,
    order_status: input.orderStatus ?? 'pending',
    payment_status: input.paymentStatus ?? 'pending',
    created_at: Date.now(),
    updated_at: Date.now(),
  });
  return id;
}

/** Marks an order paid without a payment, as if the gateway had settled it. */
export async function markOrderPaid(server: TestServer, orderId: string): Promise<void> {
  await db(server)('orders').where({ id: orderId }).update({ payment_status: 'completed', order_status: 'paid' });
}

/** Dates the order's payment requests `ageMs` in the past. */
export async function agePayments(server: TestServer, orderId: string, ageMs: number): Promise<void> {
  await db(server)('payments').where({ order_id: orderId }).update({ created_at: Date.now() - ageMs });
}
