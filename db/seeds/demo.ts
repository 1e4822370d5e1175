import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Deps } from '../../api/src/deps';
import { hashPassword } from '../../api/src/http/passwords';
import { insertedId, count } from '../../api/src/db/knex';
import { generateDemoPhoto, generateExampleImage } from '../../api/src/media/generate';
import { originalNumberOf } from '../../api/src/photos/original-number';
import { createPhotoRepository } from '../../api/src/photos/photos.repository';

/** Printed by the README; change both together. */
export const DEMO = {
  admin: { email: 'admin@example.com', password: 'photos123', firstName: 'Demo', lastName: 'Admin' },
  school: { name: 'Demo Primary School', slug: 'demo-primary', password: 'demo1234' },
  closedSchool: { name: 'Sunrise Academy', slug: 'sunrise-academy', password: 'sunrise1' },
  protectedClass: { name: 'Class 10C', password: 'class10' },
} as const;

const PRODUCTS = [
  { name: '10x15 Print', description: 'Glossy print, 10 x 15 cm', priceThebe: 2500, kind: 'print', size: '10x15 cm' },
  { name: '15x20 Print', description: 'Glossy print, 15 x 20 cm', priceThebe: 4000, kind: 'print', size: '15x20 cm' },
  { name: 'Digital Copy', description: 'Full-resolution file, no watermark', priceThebe: 1500, kind: 'digital', size: null },
  { name: 'Small Frame', description: 'Black frame with a 15 x 20 cm print', priceThebe: 3500, kind: 'print', size: '15x20 cm' },
  { name: 'Canvas', description: '30 x 40 cm stretched canvas', priceThebe: 8000, kind: 'print', size: '30x40 cm' },
] as const;

/**
 * The demo list's packages (docs/packages-and-coupons.md, "Packages"): contents by product name.
 * Family Pack: 40 + 2 x 25 + 15 = P105 of products for P95; Keepsake: 35 + 15 = P50 for P45.
 */
const PACKAGES = [
  {
    name: 'Family Pack',
    description: 'One large print, two small prints and the digital copy',
    priceThebe: 9500,
    maxPoses: 2,
    items: [
      { product: '15x20 Print', quantity: 1 },
      { product: '10x15 Print', quantity: 2 },
      { product: 'Digital Copy', quantity: 1 },
    ],
  },
  {
    name: 'Keepsake',
    description: 'A framed print and its digital copy, of one photo',
    priceThebe: 4500,
    maxPoses: 1,
    items: [
      { product: 'Small Frame', quantity: 1 },
      { product: 'Digital Copy', quantity: 1 },
    ],
  },
] as const;

/** Second and later children of one order: 10% off, up to three children (docs/packages-and-coupons.md, "Family pricing"). */
const SIBLING_DISCOUNT = { percent: 10, maxChildren: 3 } as const;

/** Classes named so that numeric-aware, case-insensitive sorting matters (Class 2B before Class 10C). */
const CLASSES: { name: string; password?: string; photos: number }[] = [
  { name: 'Class 10C', password: DEMO.protectedClass.password, photos: 10 },
  { name: 'Class 2B', photos: 12 },
  { name: 'Class 1A', photos: 12 },
  { name: 'choir', photos: 8 },
];

const FIRST_NAMES = ['Kagiso', 'Naledi', 'Thabo', 'Lesedi', 'Mpho', 'Onalenna', 'Tumelo', 'Boitumelo', 'Kabelo', 'Refilwe', 'Tebogo', 'Masego'];

/**
 * Demo data for a fresh database (SEED_DEMO): runs only when there is no staff account and no
 * school yet, so it never touches real data. Photos are generated with sharp and go through the
 * same ingest as an upload.
 */
export async function seedDemo(deps: Deps): Promise<{ schools: number; classes: number; photos: number } | null> {
  const { knex } = deps;
  // Never in production, whatever SEED_DEMO says: the demo admin's password is in the README.
  if (deps.config.nodeEnv === 'production') return null;
  if (count(await knex('staff').count({ count: '*' }).first()) > 0) return null;
  if (count(await knex('schools').count({ count: '*' }).first()) > 0) return null;

  await knex('staff').insert({
    email: DEMO.admin.email,
    password_hash: await hashPassword(DEMO.admin.password),
    first_name: DEMO.admin.firstName,
    last_name: DEMO.admin.lastName,
    role: 'admin',
    created_at: Date.now(),
  });

  const priceListId = await createPriceList(deps);
  const closingSoon = new Date(Date.now() + 60 * 24 * 3600_000).toISOString().slice(0, 10);
  const closedSince = new Date(Date.now() - 14 * 24 * 3600_000).toISOString().slice(0, 10);

  const schoolId = await insertSchool(knex, {
    ...DEMO.school,
    contactEmail: 'office@demo-primary.example',
    closingDate: closingSoon,
    priceListId,
    address: 'Plot 123, Gaborone',
  });
  const closedId = await insertSchool(knex, {
    ...DEMO.closedSchool,
    contactEmail: 'office@sunrise.example',
    closingDate: closedSince,
    priceListId: null,
    address: 'Francistown',
  });

  let photos = 0;
  let frame = 401;
  for (const spec of CLASSES) {
    const albumId = await insertAlbum(knex, schoolId, spec.name, spec.password);
    for (let i = 0; i < spec.photos; i++) photos += await addPhoto(deps, albumId, frame++, i);
  }
  const closedAlbum = await insertAlbum(knex, closedId, 'Standard 7 Leavers');
  for (let i = 0; i < 6; i++) photos += await addPhoto(deps, closedAlbum, frame++, i);

  return { schools: 2, classes: CLASSES.length + 1, photos };
}

async function createPriceList(deps: Deps): Promise<number> {
  const at = Date.now();
  const id = insertedId(
    await deps.knex('price_lists').insert({
      name: 'Standard Package',
      description: 'Prints, frames and digital copies',
      sibling_percent: SIBLING_DISCOUNT.percent,
      sibling_max_children: SIBLING_DISCOUNT.maxChildren,
      created_at: at,
      updated_at: at,
    }),
  );
  const itemIds = new Map<string, number>();
  for (const [position, product] of PRODUCTS.entries()) {
    const image = await withTempFile(deps, await generateExampleImage(product.name, position), `${product.name}.png`, (file) =>
      deps.media.storeExampleImage(file),
    );
    const itemId = insertedId(await deps.knex('price_list_items').insert({
      price_list_id: id,
      product_type: product.name,
      description: product.description,
      price_thebe: product.priceThebe,
      example_image: image,
      kind: product.kind,
      print_size: product.size,
      position,
    }));
    itemIds.set(product.name, itemId);
  }
  for (const [position, pkg] of PACKAGES.entries()) {
    const packageId = insertedId(
      await deps.knex('price_list_packages').insert({ price_list_id: id, name: pkg.name, description: pkg.description, price_thebe: pkg.priceThebe, max_poses: pkg.maxPoses, position }),
    );
    await deps.knex('price_list_package_items').insert(
      pkg.items.map((item, itemPosition) => ({ package_id: packageId, price_list_item_id: itemIds.get(item.product), quantity: item.quantity, position: itemPosition })),
    );
  }
  return id;
}

async function insertSchool(
  knex: Knex,
  school: { name: string; slug: string; password: string; contactEmail: string; closingDate: string; priceListId: number | null; address: string },
): Promise<number> {
  return insertedId(
    await knex('schools').insert({
      name: school.name,
      slug: school.slug,
      password_hash: await hashPassword(school.password),
      contact_email: school.contactEmail,
      contact_phone: '+267 390 0000',
      address: school.address,
      closing_date: school.closingDate,
      price_list_id: school.priceListId,
      created_at: Date.now(),
    }),
  );
}

async function insertAlbum(knex: Knex, schoolId: number, name: string, password?: string): Promise<number> {
  return insertedId(
    await knex('albums').insert({
      school_id: schoolId,
      name,
      password_hash: password ? await hashPassword(password) : null,
      created_at: Date.now(),
    }),
  );
}

async function addPhoto(deps: Deps, albumId: number, frame: number, index: number): Promise<number> {
  const student = FIRST_NAMES[(frame + index) % FIRST_NAMES.length] ?? 'Student';
  const originalName = `IMG_${String(frame).padStart(4, '0')}.JPG`;
  const jpeg = await generateDemoPhoto({ seed: frame, label: student });
  const stored = await withTempFile(deps, jpeg, originalName, (file) => deps.media.ingestPhoto(file));
  await createPhotoRepository(deps.knex).insertMany([
    { albumId, originalName, originalNumber: originalNumberOf(originalName), studentName: student, stored },
  ]);
  return 1;
}

async function withTempFile<T>(
  deps: Deps,
  bytes: Buffer,
  originalName: string,
  use: (file: { path: string; originalName: string; size: number }) => Promise<T>,
): Promise<T> {
  await fs.mkdir(deps.media.tmpDir, { recursive: true });
  const file = path.join(deps.media.tmpDir, `seed-${randomUUID()}`);
  await fs.writeFile(file, bytes);
  try {
    return await use({ path: file, originalName, size: bytes.length });
  } finally {
    await fs.rm(file, { force: true });
  }
}
