import type { Knex } from 'knex';
import { inTx, runner, type Tx } from '../db/database';
import { insertedId, now, toIso } from '../db/knex';
import type { ProductKind } from '../../contract/constants';

export interface PriceListItemRecord {
  id: number;
  /** The product's name (the API calls it `productType`). */
  productName: string;
  description: string;
  priceThebe: number;
  exampleImage: string | null;
  kind: ProductKind;
  printSize: string | null;
}

export interface PackageRecord {
  id: number;
  name: string;
  description: string;
  priceThebe: number;
  maxPoses: number | null;
  /** Items of the same list, in the package's order. */
  items: { priceListItemId: number; quantity: number }[];
}

export interface PriceListRecord {
  id: number;
  name: string;
  description: string;
  createdAt: string;
  items: PriceListItemRecord[];
  packages: PackageRecord[];
  /** The family discount, or null (docs/packages-and-coupons.md, "Family pricing"). */
  siblingDiscount: { percent: number; maxChildren: number } | null;
}

export interface ItemWrite {
  productName: string;
  description: string;
  priceThebe: number;
  exampleImage: string | null;
  kind: ProductKind;
  printSize: string | null;
}

/** A package to write: its contents already resolved to items of the same list. */
export interface PackageWrite {
  name: string;
  description: string;
  priceThebe: number;
  maxPoses: number | null;
  items: { priceListItemId: number; quantity: number }[];
}

/** The list's own fields; siblingDiscount null switches the family discount off. */
export interface ListWrite {
  name: string;
  description: string;
  siblingDiscount: { percent: number; maxChildren: number } | null;
}

function listRow(input: ListWrite) {
  return {
    name: input.name,
    description: input.description,
    sibling_percent: input.siblingDiscount?.percent ?? null,
    sibling_max_children: input.siblingDiscount?.maxChildren ?? null,
  };
}

interface ListRow {
  id: number;
  name: string;
  description: string | null;
  created_at: number | string;
  sibling_percent: number | null;
  sibling_max_children: number | null;
}

const LIST_COLUMNS = ['id', 'name', 'description', 'created_at', 'sibling_percent', 'sibling_max_children'] as const;

interface PackageRow {
  id: number;
  price_list_id: number;
  name: string;
  description: string | null;
  price_thebe: number | string;
  max_poses: number | null;
}

interface ItemRow {
  id: number;
  price_list_id: number;
  product_type: string;
  description: string | null;
  price_thebe: number | string;
  example_image: string | null;
  kind: ProductKind;
  print_size: string | null;
}

function toItem(row: ItemRow): PriceListItemRecord {
  return {
    id: Number(row.id),
    productName: row.product_type,
    description: row.description ?? '',
    priceThebe: Number(row.price_thebe),
    exampleImage: row.example_image,
    kind: row.kind,
    printSize: row.print_size,
  };
}

async function withItems(db: Knex, lists: ListRow[]): Promise<PriceListRecord[]> {
  if (lists.length === 0) return [];
  const items = (await db('price_list_items')
    .whereIn(
      'price_list_id',
      lists.map((list) => list.id),
    )
    .orderBy([{ column: 'position' }, { column: 'id' }])) as ItemRow[];
  const packages = (await db('price_list_packages')
    .whereIn(
      'price_list_id',
      lists.map((list) => list.id),
    )
    .orderBy([{ column: 'position' }, { column: 'id' }])) as PackageRow[];
  const contents =
    packages.length === 0
      ? []
      : ((await db('price_list_package_items')
          .whereIn(
            'package_id',
            packages.map((pkg) => pkg.id),
          )
          .orderBy([{ column: 'position' }, { column: 'id' }])
          .select('package_id', 'price_list_item_id', 'quantity')) as { package_id: number; price_list_item_id: number; quantity: number }[]);
  return lists.map((list) => ({
    id: Number(list.id),
    name: list.name,
    description: list.description ?? '',
    createdAt: toIso(list.created_at),
    items: items.filter((item) => Number(item.price_list_id) === Number(list.id)).map(toItem),
    packages: packages
      .filter((pkg) => Number(pkg.price_list_id) === Number(list.id))
      .map((pkg) => ({
        id: Number(pkg.id),
        name: pkg.name,
        description: pkg.description ?? '',
        priceThebe: Number(pkg.price_thebe),
        maxPoses: pkg.max_poses === null ? null : Number(pkg.max_poses),
        items: contents
          .filter((row) => Number(row.package_id) === Number(pkg.id))
          .map((row) => ({ priceListItemId: Number(row.price_list_item_id), quantity: Number(row.quantity) })),
      })),
    siblingDiscount:
      list.sibling_percent === null || list.sibling_max_children === null
        ? null
        : { percent: Number(list.sibling_percent), maxChildren: Number(list.sibling_max_children) },
  }));
}

export function createPriceListRepository(knex: Knex) {
  return {
    async list(): Promise<PriceListRecord[]> {
      return withItems(knex, (await knex('price_lists').select(LIST_COLUMNS)) as ListRow[]);
    },

    async findById(id: number, tx?: Tx): Promise<PriceListRecord | undefined> {
      const db = runner(knex, tx);
      const rows = (await db('price_lists').where({ id }).select(LIST_COLUMNS)) as ListRow[];
      return (await withItems(db, rows))[0];
    },

    async schoolPriceListId(schoolId: number): Promise<number | null | undefined> {
      const row = (await knex('schools').where({ id: schoolId }).first('price_list_id')) as { price_list_id: number | null } | undefined;
      if (!row) return undefined;
      return row.price_list_id === null ? null : Number(row.price_list_id);
    },

    async insert(input: ListWrite, tx: Tx): Promise<number> {
      const at = now();
      return insertedId(await inTx(tx)('price_lists').insert({ ...listRow(input), created_at: at, updated_at: at }));
    },

    async update(id: number, input: ListWrite, tx: Tx): Promise<void> {
      await inTx(tx)('price_lists').where({ id }).update({ ...listRow(input), updated_at: now() });
    },

    /**
     * Writes the items in row order. An existing item with the same product name keeps its id, so
     * carts that hold that id stay valid when staff edit a price or description. Returns the ids
     * of the written items in row order.
     */
    async replaceItems(priceListId: number, items: ItemWrite[], tx: Tx): Promise<number[]> {
      const db = inTx(tx);
      const existing = (await db('price_list_items').where({ price_list_id: priceListId }).select('id', 'product_type')) as {
        id: number;
        product_type: string;
      }[];
      const unused = new Map<number, string>(existing.map((row) => [Number(row.id), row.product_type]));
      const ids: number[] = [];
      for (const [position, item] of items.entries()) {
        const row = {
          product_type: item.productName,
          description: item.description,
          price_thebe: item.priceThebe,
          example_image: item.exampleImage,
          kind: item.kind,
          print_size: item.printSize,
          position,
        };
        const reuse = [...unused].find(([, productName]) => productName === item.productName)?.[0];
        if (reuse === undefined) {
          ids.push(insertedId(await db('price_list_items').insert({ ...row, price_list_id: priceListId })));
        } else {
          unused.delete(reuse);
          await db('price_list_items').where({ id: reuse }).update(row);
          ids.push(reuse);
        }
      }
      if (unused.size > 0) {
        // A removed product leaves the packages holding it first (their contents are rewritten next).
        await db('price_list_package_items').whereIn('price_list_item_id', [...unused.keys()]).delete();
        await db('price_list_items').whereIn('id', [...unused.keys()]).delete();
      }
      return ids;
    },

    /**
     * Writes the packages in order, like replaceItems: an existing package with the same name keeps
     * its id (carts holding it stay valid), its contents are written anew; packages no longer
     * listed are removed (docs/packages-and-coupons.md, "Packages").
     */
    async replacePackages(priceListId: number, packages: PackageWrite[], tx: Tx): Promise<void> {
      const db = inTx(tx);
      const existing = (await db('price_list_packages').where({ price_list_id: priceListId }).select('id', 'name')) as { id: number; name: string }[];
      const unused = new Map<number, string>(existing.map((row) => [Number(row.id), row.name]));
      if (existing.length > 0) await db('price_list_package_items').whereIn('package_id', [...unused.keys()]).delete();
      for (const [position, pkg] of packages.entries()) {
        const row = { name: pkg.name, description: pkg.description, price_thebe: pkg.priceThebe, max_poses: pkg.maxPoses, position };
        let packageId = [...unused].find(([, name]) => name === pkg.name)?.[0];
        if (packageId === undefined) {
          packageId = insertedId(await db('price_list_packages').insert({ ...row, price_list_id: priceListId }));
        } else {
          unused.delete(packageId);
          await db('price_list_packages').where({ id: packageId }).update(row);
        }
        const contents = pkg.items.map((item, itemPosition) => ({
          package_id: packageId,
          price_list_item_id: item.priceListItemId,
          quantity: item.quantity,
          position: itemPosition,
        }));
        if (contents.length > 0) await db('price_list_package_items').insert(contents);
      }
      if (unused.size > 0) await db('price_list_packages').whereIn('id', [...unused.keys()]).delete();
    },

    /** The list, its packages and its items. */
    async delete(id: number, tx: Tx): Promise<void> {
      const db = inTx(tx);
      const packageIds = db('price_list_packages').where({ price_list_id: id }).select('id');
      await db('price_list_package_items').whereIn('package_id', packageIds).delete();
      await db('price_list_packages').where({ price_list_id: id }).delete();
      await db('price_list_items').where({ price_list_id: id }).delete();
      await db('price_lists').where({ id }).delete();
    },
  };
}
export type PriceListRepository = ReturnType<typeof createPriceListRepository>;
