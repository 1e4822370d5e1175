import { afterAll, beforeAll, expect, it } from 'vitest';
import { PACKAGE_MSG } from '../../contract/messages';
import { priceListSchema, type PriceList } from '../../contract/price-lists';
import { describeApi, startWithVisitors, type Client, type TestServer } from '../../test/harness';
import { createSchool } from '../schools/schools.test-helpers';

/** The editor's multipart form: product rows, then `packages` and `siblingDiscount` as JSON fields. */
function editorForm(name: string, rows: Record<string, string>[], packages: unknown, siblingDiscount: unknown) {
  const form = new FormData();
  form.append('name', name);
  rows.forEach((row, i) => {
    for (const [key, value] of Object.entries(row)) form.append(`products[${i}][${key}]`, value);
  });
  if (packages !== undefined) form.append('packages', typeof packages === 'string' ? packages : JSON.stringify(packages));
  if (siblingDiscount !== undefined) form.append('siblingDiscount', typeof siblingDiscount === 'string' ? siblingDiscount : JSON.stringify(siblingDiscount));
  return form;
}

const products: Record<string, string>[] = [
  { name: '10x15 Print', price: '25', kind: 'print', size: '10x15 cm' },
  { name: '15x20 Print', price: '40', kind: 'print', size: '15x20 cm' },
  { name: 'Digital Copy', price: '15', kind: 'digital' },
];

const familyPack = {
  name: 'Family Pack',
  description: 'Prints for the grandparents',
  price: '100',
  items: [
    { productName: '15x20 Print', quantity: 1 },
    { productName: '10x15 Print', quantity: 2 },
    { productName: 'Digital Copy', quantity: 1 },
  ],
  maxPoses: 2,
};

const itemId = (list: PriceList, name: string) => list.items.find((item) => item.productType === name)?.id;

describeApi('price list packages and sibling discount', () => {
  let server: TestServer;
  let staff: Client;
  let anon: Client;
  beforeAll(async () => ({ server, staff, anon } = await startWithVisitors('photographer')));
  afterAll(() => server?.close());

  const packageRows = async (listId: number) =>
    (await server.runtime.knex('price_list_packages').where({ price_list_id: listId }).orderBy('position')) as { id: number; name: string; price_thebe: number; max_poses: number | null }[];

  it('POST (JSON): packages by product name are stored in thebe and presented with their value and savings', async () => {
    const res = await staff.post('/api/price-lists', { name: 'Packages', products, packages: [familyPack], siblingDiscount: { percent: 20, maxChildren: 3 } });
    expect(res.status).toBe(201);
    const list = priceListSchema.strict().parse(res.body);
    expect(list.siblingDiscount).toEqual({ percent: 20, maxChildren: 3 });
    expect(list.packages).toEqual([
      {
        id: expect.any(Number),
        name: 'Family Pack',
        description: 'Prints for the grandparents',
        price: '100.00',
        items: [
          { productId: itemId(list, '15x20 Print'), quantity: 1 },
          { productId: itemId(list, '10x15 Print'), quantity: 2 },
          { productId: itemId(list, 'Digital Copy'), quantity: 1 },
        ],
        maxPoses: 2,
        // 40 + 2 x 25 + 15
        itemsValue: '105.00',
        savings: '5.00',
      },
    ]);
    const rows = await packageRows(list.id);
    expect(rows.map((row) => [row.name, Number(row.price_thebe), row.max_poses === null ? null : Number(row.max_poses)])).toEqual([['Family Pack', 10000, 2]]);
    const stored = (await server.runtime.knex('price_lists').where({ id: list.id }).first('sibling_percent', 'sibling_max_children')) as Record<string, number>;
    expect([Number(stored.sibling_percent), Number(stored.sibling_max_children)]).toEqual([20, 3]);

    // Parents read the same packages through the school's price list.
    const school = await createSchool(staff, { priceListId: list.id });
    const forSchool = await anon.get(`/api/schools/${school.id}/price-lists`);
    expect(forSchool.status).toBe(200);
    expect(forSchool.body[0].packages).toEqual(list.packages);
    expect(forSchool.body[0].siblingDiscount).toEqual({ percent: 20, maxChildren: 3 });
  });

  it('PUT: a package keeps its id while its name stays; contents by id and by name; removed packages go', async () => {
    const created = await staff.post('/api/price-lists', {
      name: 'Editable packages',
      products,
      packages: [familyPack, { name: 'Digital Bundle', price: '20', items: [{ productName: 'Digital Copy', quantity: 2 }] }],
    });
    expect(created.status).toBe(201);
    const before = created.body as PriceList;
    const [family, bundle] = before.packages;
    const print = itemId(before, '10x15 Print') as number;

    const res = await staff.put(`/api/price-lists/${before.id}`, {
      name: 'Editable packages',
      // 15x20 Print renamed: a new item; Digital Copy kept by name (same id).
      products: [products[0], { name: '15x20 Large Print', price: '45', kind: 'print' }, products[2]],
      packages: [
        { name: 'Starter', price: '30', items: [{ productId: print, quantity: 1 }, { productName: 'Digital Copy', quantity: 1 }] },
        { name: 'Family Pack', price: '110.50', items: [{ productName: '15x20 Large Print', quantity: 1 }, { productId: print, quantity: 3 }], maxPoses: null },
      ],
    });
    expect(res.status).toBe(200);
    const after = priceListSchema.strict().parse(res.body);
    expect(after.packages.map((pkg) => pkg.name)).toEqual(['Starter', 'Family Pack']);
    const [starter, familyAfter] = after.packages;
    expect(familyAfter?.id).toBe(family?.id);
    expect(starter?.id).not.toBe(bundle?.id);
    expect(familyAfter).toMatchObject({
      price: '110.50',
      maxPoses: null,
      items: [
        { productId: itemId(after, '15x20 Large Print'), quantity: 1 },
        { productId: print, quantity: 3 },
      ],
      // 45 + 3 x 25
      itemsValue: '120.00',
      savings: '9.50',
    });
    expect(starter).toMatchObject({ items: [{ productId: print }, { productId: itemId(before, 'Digital Copy') }], itemsValue: '40.00', savings: '10.00' });
    expect((await packageRows(before.id)).map((row) => Number(row.id))).toEqual([starter?.id, family?.id]);
    // The removed package's contents went with it; no contents point at the old 15x20 item.
    const contents = (await server.runtime.knex('price_list_package_items').whereIn('package_id', [family?.id ?? 0, bundle?.id ?? 0, starter?.id ?? 0])) as { package_id: number; price_list_item_id: number }[];
    expect(contents.filter((row) => Number(row.package_id) === bundle?.id)).toEqual([]);
    expect(contents.map((row) => Number(row.price_list_item_id))).not.toContain(itemId(before, '15x20 Print'));
    expect(contents).toHaveLength(4);
  });

  it('a package costing more than its contents shows no savings', async () => {
    const res = await staff.post('/api/price-lists', { name: 'Dear', products, packages: [{ name: 'Dear Pack', price: '30', items: [{ productName: '10x15 Print', quantity: 1 }] }] });
    expect(res.status).toBe(201);
    expect(res.body.packages[0]).toMatchObject({ itemsValue: '25.00', savings: '0.00' });
  });

  it('400 for bad package references and shapes; nothing is written', async () => {
    const original = await staff.post('/api/price-lists', { name: 'Untouched', products, packages: [familyPack], siblingDiscount: { percent: 10, maxChildren: 2 } });
    expect(original.status).toBe(201);
    const other = await staff.post('/api/price-lists', { name: 'Other list', products: [{ name: 'Foreign Print', price: '5' }] });
    const foreignId = other.body.items[0].id as number;
    const listsBefore = (await staff.get('/api/price-lists')).body.length as number;

    const cases: { packages: unknown; message: string; field: string }[] = [
      { packages: [{ ...familyPack, maxPoses: null, items: [{ productName: 'Poster', quantity: 1 }] }], message: PACKAGE_MSG.productNotInList('Poster'), field: 'packages.0.items.0.productName' },
      { packages: [{ ...familyPack, maxPoses: null, items: [{ productId: foreignId, quantity: 1 }] }], message: PACKAGE_MSG.productNotInList(`Product ${foreignId}`), field: 'packages.0.items.0.productId' },
      { packages: [familyPack, { ...familyPack, name: ' family   PACK ' }], message: PACKAGE_MSG.duplicateName('family   PACK'), field: 'packages.1.name' },
      // Its contents hold 4 pieces (1 + 2 + 1), each of which may take its own photo.
      { packages: [{ ...familyPack, maxPoses: 5 }], message: PACKAGE_MSG.maxPosesAboveItems(4), field: 'packages.0.maxPoses' },
      { packages: [{ ...familyPack, maxPoses: null, items: [] }], message: PACKAGE_MSG.itemsRequired, field: 'packages.0.items' },
      { packages: [{ ...familyPack, maxPoses: null, items: [{ productName: '10x15 Print', quantity: 11 }] }], message: PACKAGE_MSG.itemQuantity, field: 'packages.0.items.0.quantity' },
      { packages: [{ ...familyPack, maxPoses: null, items: [{ quantity: 1 }] }], message: PACKAGE_MSG.itemProduct, field: 'packages.0.items.0' },
      { packages: [{ ...familyPack, price: '12.345' }], message: PACKAGE_MSG.priceInvalid, field: 'packages.0.price' },
      { packages: [{ ...familyPack, name: '' }], message: PACKAGE_MSG.nameRequired, field: 'packages.0.name' },
      { packages: 'Family Pack', message: PACKAGE_MSG.packagesInvalid, field: 'packages' },
    ];
    for (const { packages, message, field } of cases) {
      for (const res of [
        await staff.post('/api/price-lists', { name: 'Refused', products, packages }),
        await staff.put(`/api/price-lists/${original.body.id}`, { name: 'Changed', products, packages }),
      ]) {
        expect(res.status, message).toBe(400);
        expect(res.body.message).toBe(message);
        expect(res.body.errors).toHaveProperty([field], message);
      }
    }
    const twoAlike = await staff.post('/api/price-lists', {
      name: 'Twins',
      products: [products[0], products[0]],
      packages: [{ name: 'P', price: '1', items: [{ productName: '10x15 Print', quantity: 1 }] }],
    });
    expect(twoAlike.status).toBe(400);
    expect(twoAlike.body.message).toBe(PACKAGE_MSG.productAmbiguous('10x15 Print'));

    expect((await staff.get('/api/price-lists')).body).toHaveLength(listsBefore);
    const unchanged = await staff.get(`/api/price-lists/${original.body.id}`);
    expect(unchanged.body).toEqual(original.body);
  });

  it('sibling discount: saved, refused when out of range, cleared by null or by leaving it out', async () => {
    const created = await staff.post('/api/price-lists', { name: 'Family', products, siblingDiscount: { percent: '25', maxChildren: '4' } });
    expect(created.status).toBe(201);
    expect(created.body.siblingDiscount).toEqual({ percent: 25, maxChildren: 4 });
    const id = created.body.id as number;

    for (const [siblingDiscount, field, message] of [
      [{ percent: 0, maxChildren: 3 }, 'siblingDiscount.percent', PACKAGE_MSG.siblingPercentInvalid],
      [{ percent: 101, maxChildren: 3 }, 'siblingDiscount.percent', PACKAGE_MSG.siblingPercentInvalid],
      [{ percent: 12.5, maxChildren: 3 }, 'siblingDiscount.percent', PACKAGE_MSG.siblingPercentInvalid],
      [{ percent: 20, maxChildren: 1 }, 'siblingDiscount.maxChildren', PACKAGE_MSG.siblingMaxInvalid],
      [{ percent: 20, maxChildren: 21 }, 'siblingDiscount.maxChildren', PACKAGE_MSG.siblingMaxInvalid],
      [{ percent: 20 }, 'siblingDiscount.maxChildren', PACKAGE_MSG.siblingMaxInvalid],
      ['twenty', 'siblingDiscount', PACKAGE_MSG.siblingPercentInvalid],
    ] as const) {
      const res = await staff.put(`/api/price-lists/${id}`, { name: 'Family', products, siblingDiscount });
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveProperty([field], message);
    }
    expect((await staff.get(`/api/price-lists/${id}`)).body.siblingDiscount).toEqual({ percent: 25, maxChildren: 4 });

    const changed = await staff.put(`/api/price-lists/${id}`, { name: 'Family', products, siblingDiscount: { percent: 100, maxChildren: 20 } });
    expect(changed.body.siblingDiscount).toEqual({ percent: 100, maxChildren: 20 });
    const cleared = await staff.put(`/api/price-lists/${id}`, { name: 'Family', products, siblingDiscount: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.siblingDiscount).toBeNull();
    await staff.put(`/api/price-lists/${id}`, { name: 'Family', products, siblingDiscount: { percent: 10, maxChildren: 2 } });
    const omitted = await staff.put(`/api/price-lists/${id}`, { name: 'Family', products });
    expect(omitted.body.siblingDiscount).toBeNull();
    const stored = (await server.runtime.knex('price_lists').where({ id }).first('sibling_percent', 'sibling_max_children')) as Record<string, unknown>;
    expect(stored).toEqual({ sibling_percent: null, sibling_max_children: null });
  });

  it('multipart (the editor): packages and siblingDiscount as JSON fields; blank means none; bad JSON is a 400', async () => {
    const created = await staff.post('/api/price-lists', editorForm('From the editor', products, [familyPack], { percent: 15, maxChildren: 3 }));
    expect(created.status).toBe(201);
    expect(created.body.packages).toHaveLength(1);
    expect(created.body.packages[0]).toMatchObject({ name: 'Family Pack', maxPoses: 2, itemsValue: '105.00', savings: '5.00' });
    expect(created.body.siblingDiscount).toEqual({ percent: 15, maxChildren: 3 });
    const packageId = created.body.packages[0].id as number;

    const edited = await staff.put(`/api/price-lists/${created.body.id}`, editorForm('From the editor', products, [{ ...familyPack, price: '99' }], ''));
    expect(edited.status).toBe(200);
    expect(edited.body.packages[0]).toMatchObject({ id: packageId, price: '99.00', savings: '6.00' });
    expect(edited.body.siblingDiscount).toBeNull();

    const none = await staff.put(`/api/price-lists/${created.body.id}`, editorForm('From the editor', products, '', undefined));
    expect(none.status).toBe(200);
    expect(none.body.packages).toEqual([]);
    expect(await packageRows(created.body.id)).toEqual([]);

    const broken = await staff.post('/api/price-lists', editorForm('Broken JSON', products, '[{"name":', undefined));
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe(PACKAGE_MSG.packagesInvalid);
  });

  it('deleting a price list removes its packages and their contents', async () => {
    const created = await staff.post('/api/price-lists', { name: 'Short-lived', products, packages: [familyPack] });
    const packageId = created.body.packages[0].id as number;
    expect((await staff.delete(`/api/price-lists/${created.body.id}`)).status).toBe(200);
    expect(await packageRows(created.body.id)).toEqual([]);
    expect(await server.runtime.knex('price_list_package_items').where({ package_id: packageId })).toEqual([]);
  });
});
