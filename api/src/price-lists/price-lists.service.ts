import { MSG } from '../../contract/messages';
import type { PriceList, PriceListInput } from '../../contract/price-lists';
import { notFound } from '../http/errors';
import type { UploadedFile } from '../http/multipart';
import type { Deps } from '../deps';
import { compareNames } from '../../contract/format';
import { createDatabase, type Tx } from '../db/database';
import { createPriceListRepository, type ItemWrite, type PriceListRecord } from './price-lists.repository';
import { presentPriceList } from './price-lists.presenter';
import { exampleImageName } from './price-lists.form';

type PriceListDeps = Pick<Deps, 'knex' | 'media' | 'logger'>;

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
   * Stores this request's uploads, then writes list and items in one transaction. Uploads are
   * removed again when anything fails; images the list no longer uses are removed after commit.
   */
  async function save(id: number | null, input: PriceListInput, uploads: Map<number, UploadedFile>): Promise<PriceList> {
    const before = id === null ? [] : (await get(id)).items.flatMap((item) => (item.exampleImage ? [item.exampleImage] : []));
    // Only a name this list already uses may be kept, so no request can adopt another list's file.
    const keepable = new Set(before);
    const stored: string[] = [];
    let savedId: number;
    try {
      const items: ItemWrite[] = [];
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
        const fields = { name: input.name, description: input.description };
        let listId = id;
        if (listId === null) {
          listId = await repo.insert(fields, tx);
        } else {
          await get(listId, tx);
          await repo.update(listId, fields, tx);
        }
        await repo.replaceItems(listId, items, tx);
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
