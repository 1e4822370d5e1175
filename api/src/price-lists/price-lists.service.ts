import { MSG, PACKAGE_MSG } from '../../contract/messages';
import { kindFromName, type PackageInput, type PriceList, type PriceListInput } from '../../contract/price-lists';
import type { ProductKind } from '../../contract/constants';
import { badRequest, notFound } from '../http/errors';
import type { UploadedFile } from '../http/multipart';
import type { Deps } from '../deps';
import { compareNames } from '../../contract/format';
import { createDatabase, type Tx } from '../db/database';
import { createPriceListRepository, type ItemWrite, type PackageWrite, type PriceListRecord } from './price-lists.repository';
import { presentPriceList } from './price-lists.presenter';
import { exampleImageName } from './price-lists.form';

type PriceListDeps = Pick<Deps, 'knex' | 'media' | 'logger'>;

const fieldError = (message: string, field: string) => badRequest(message, { [field]: message });

/**
 * The rules a package's shape must keep on its own (docs/packages-and-coupons.md, "Packages"): no
 * two packages of a list share a name (case and spaces aside), and the poses limit is at most the
 * total quantity of its contents.
 */
function checkPackages(packages: readonly PackageInput[]): void {
  const seen = new Set<string>();
  for (const [index, pkg] of packages.entries()) {
    const key = pkg.name.replace(/\s+/g, ' ').toLowerCase();
    if (seen.has(key)) throw fieldError(PACKAGE_MSG.duplicateName(pkg.name), `packages.${index}.name`);
    seen.add(key);
    // Each piece of the contents (2 x 13x18 is two) may take its own photo.
    const pieces = pkg.items.reduce((sum, item) => sum + item.quantity, 0);
    if (pkg.maxPoses !== null && pkg.maxPoses > pieces) {
      throw fieldError(PACKAGE_MSG.maxPosesAboveItems(pieces), `packages.${index}.maxPoses`);
    }
  }
}

/**
 * A package's contents name products of the list as saved: `productId` an item id of this list
 * (an existing product keeps its id while its name stays), else `productName` a product row of
 * this request, exactly as written there. Anything else is refused, naming what was sent.
 */
function resolvePackages(packages: readonly PackageInput[], saved: readonly { id: number; name: string }[]): PackageWrite[] {
  const ids = new Set(saved.map((item) => item.id));
  return packages.map((pkg, index) => ({
    name: pkg.name,
    description: pkg.description,
    priceThebe: pkg.price,
    maxPoses: pkg.maxPoses,
    items: pkg.items.map((item, row) => {
      if (item.productId !== undefined) {
        if (!ids.has(item.productId)) throw fieldError(PACKAGE_MSG.productNotInList(`Product ${item.productId}`), `packages.${index}.items.${row}.productId`);
        return { priceListItemId: item.productId, quantity: item.quantity };
      }
      const name = item.productName ?? '';
      const matches = saved.filter((product) => product.name === name);
      const field = `packages.${index}.items.${row}.productName`;
      if (matches.length === 0) throw fieldError(PACKAGE_MSG.productNotInList(name), field);
      if (matches.length > 1) throw fieldError(PACKAGE_MSG.productAmbiguous(name), field);
      return { priceListItemId: (matches[0] as { id: number }).id, quantity: item.quantity };
    }),
  }));
}

/**
 * A product sent without a kind (docs/money-and-pricing.md, "Print and digital products"): one
 * that keeps its id (same name) keeps its kind, a new one takes it from its name; a digital
 * product has no print size.
 */
function withKind(item: ItemDraft, kindsBefore: ReadonlyMap<string, ProductKind>): ItemWrite {
  const kind = item.kind ?? kindsBefore.get(item.productName) ?? kindFromName(item.productName);
  return { ...item, kind, printSize: kind === 'digital' ? null : item.printSize };
}

type ItemDraft = Omit<ItemWrite, 'kind'> & { kind: ProductKind | null };

export function createPriceListService(deps: PriceListDeps) {
  const database = createDatabase(deps.knex);
  const repo = createPriceListRepository(deps.knex);

  async function get(id: number, tx?: Tx): Promise<PriceListRecord> {
    const list = await repo.findById(id, tx);
    if (!list) throw notFound(MSG.priceListNotFound);
    return list;
  }

  async function removeImages(names: Iterable<string>): Promise<void> {
    for (const name of names) {
      try {
        await deps.media.removeExampleImage(name);
      } catch (err) {
        deps.logger.warn({ err, name }, 'could not remove example image');
      }
    }
  }

  /**
   * Stores this request's uploads, then writes list, items and packages in one transaction. Uploads
   * are removed again when anything fails; images the list no longer uses are removed after commit.
   */
  async function save(id: number | null, input: PriceListInput, uploads: Map<number, UploadedFile>): Promise<PriceList> {
    checkPackages(input.packages);
    const before = id === null ? [] : (await get(id)).items.flatMap((item) => (item.exampleImage ? [item.exampleImage] : []));
    // Only a name this list already uses may be kept, so no request can adopt another list's file.
    const keepable = new Set(before);
    const stored: string[] = [];
    let savedId: number;
    try {
      const items: ItemDraft[] = [];
      for (const product of input.products) {
        const upload = uploads.get(product.index);
        let exampleImage: string | null = null;
        if (upload) {
          exampleImage = await deps.media.storeExampleImage(upload);
          stored.push(exampleImage);
        } else {
          const kept = exampleImageName(product.existingImagePath);
          exampleImage = kept && keepable.has(kept) ? kept : null;
        }
        items.push({ productName: product.name, description: product.description, priceThebe: product.priceThebe, exampleImage, kind: product.kind, printSize: product.size });
      }
      savedId = await database.transaction(async (tx) => {
        const fields = { name: input.name, description: input.description, siblingDiscount: input.siblingDiscount };
        let listId = id;
        const kindsBefore = new Map<string, ProductKind>();
        if (listId === null) {
          listId = await repo.insert(fields, tx);
        } else {
          for (const item of (await get(listId, tx)).items) kindsBefore.set(item.productName, item.kind);
          await repo.update(listId, fields, tx);
        }
        const itemIds = await repo.replaceItems(listId, items.map((item) => withKind(item, kindsBefore)), tx);
        const saved = itemIds.map((itemId, position) => ({ id: itemId, name: items[position]?.productName ?? '' }));
        await repo.replacePackages(listId, resolvePackages(input.packages, saved), tx);
        return listId;
      });
    } catch (err) {
      await removeImages(stored);
      throw err;
    }
    const saved = await get(savedId);
    const still = new Set(saved.items.map((item) => item.exampleImage));
    await removeImages(before.filter((name) => !still.has(name)));
    return presentPriceList(saved);
  }

  return {
    async list(): Promise<PriceList[]> {
      const lists = await repo.list();
      return lists.sort((a, b) => compareNames(a.name, b.name) || a.id - b.id).map(presentPriceList);
    },

    async get(id: number): Promise<PriceList> {
      return presentPriceList(await get(id));
    },

    /** The gallery reads the first entry; a school without a price list gets [] (fallback products). */
    async forSchool(schoolId: number): Promise<PriceList[]> {
      const priceListId = await repo.schoolPriceListId(schoolId);
      if (priceListId === undefined) throw notFound(MSG.schoolNotFound);
      const list = priceListId === null ? undefined : await repo.findById(priceListId);
      return list ? [presentPriceList(list)] : [];
    },

    create: (input: PriceListInput, uploads: Map<number, UploadedFile>) => save(null, input, uploads),
    update: (id: number, input: PriceListInput, uploads: Map<number, UploadedFile>) => save(id, input, uploads),

    /** Schools using the list fall back to no price list (schools.price_list_id is ON DELETE SET NULL). */
    async delete(id: number): Promise<void> {
      const images = await database.transaction(async (tx) => {
        const list = await get(id, tx);
        await repo.delete(id, tx);
        return list.items.flatMap((item) => (item.exampleImage ? [item.exampleImage] : []));
      });
      await removeImages(images);
    },
  };
}
