/**
 * Moving or withholding a photo a family paid for warns first (docs/access.md, "Moving a sold
 * photo"), as the photographer lives it on a tablet. A family buys a print of their child's photo
 * and the photographer has already batched it for the lab. On the review sheet, moving the photo to
 * another child asks first, saying the family will see it as withdrawn, that staff refund it and
 * that it is "already in batch #N for the lab"; "Keep it" leaves it where it was; "Move anyway"
 * moves it, and the batch then says its packing list and labels changed, and its packing list
 * prints the CHANGED line. "Back to draft" and the roster's "Do not publish" box ask the same way.
 */
import fs from 'node:fs';
import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { ReviewSheet } from '../api/contract/albums';
import { REVIEW_MSG } from '../api/contract/messages';
import { REVIEW_SCREEN_MSG } from '../api/contract/staff-screen-messages';
import { SOLD_PHOTO_MSG } from '../api/contract/withdrawn-photos';
import { pdfPagesText } from '../api/test/pdf';
import { toastWith, uniqueEmail } from './support/journey';
import { adminToken, api, createCodesClass, makeJpeg, signIn, uploadBatch } from './staff-helpers';
import { describeJourney, type JourneyEnv } from './support/journey-suite';

const TABLET = { viewport: { width: 1024, height: 768 }, hasTouch: true };

const form = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });
const hidden = (html: string) => Object.fromEntries([...html.matchAll(/<input type="hidden" name="([A-Z_]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]));

/** What a parent's browser does with a payment request on the sandbox: its page, Pay with an approved card, the return. */
async function payOnSandbox(baseUrl: string, request: { processUrl: string; payRequestId: string; checksum: string }): Promise<void> {
  const page = hidden(await (await form(request.processUrl, { PAY_REQUEST_ID: request.payRequestId, CHECKSUM: request.checksum })).text());
  const done = await (await form(`${baseUrl}/payweb3/pay.trans`, { PAY_REQUEST_ID: page.PAY_REQUEST_ID!, CHECKSUM: page.CHECKSUM!, CARD_NUMBER: '4000000000000002', EXPIRY: '12/35', CVV: '123', ACTION: 'pay' })).text();
  const action = /<form method="post" action="([^"]+)"/.exec(done)?.[1]?.replace(/&amp;/g, '&');
  if (!action) throw new Error('the sandbox did not answer with a return form');
  await form(action, hidden(done));
}

interface SoldSetup {
  token: string;
  school: { id: number; name: string };
  album: { id: number };
  kabo: { id: number; name: string; code: string };
  lorato: { id: number; name: string };
  photoId: number;
  orderId: string;
  batchId: number;
}

/**
 * A published class of a student-codes school with Kabo's photo; Kabo's family (in its own browser,
 * holding his code) orders a 10x15 print of it and pays on the sandbox; the photographer batches
 * the school's paid prints for the lab. Made through the API, as the family's and staff's screens
 * are not what these journeys are about.
 */
async function soldAndBatched(env: JourneyEnv, label: string): Promise<SoldSetup> {
  const base = env.server.url;
  const token = await adminToken(base);
  const { school, album, students } = await createCodesClass(base, token, label, 'Grade 6B', ['Kabo Sello', 'Lorato Sello']);
  const [kabo, lorato] = students as [(typeof students)[number], (typeof students)[number]];
  // The studio's price list (the demo one, with its 10x15 print) for the new school.
  const [priceList] = await api<{ id: number }[]>(base, '/api/price-lists', { token });
  await api(base, `/api/schools/${school.id}`, { method: 'PATCH', token, body: { priceListId: priceList!.id } });
  const uploaded = await uploadBatch(base, token, album.id, [{ name: 'DSC_0200.JPG', buffer: await makeJpeg(200) }]);
  expect(uploaded.status).toBe(201);
  const photoId = uploaded.body.photos[0]!.id;
  await api(base, '/api/photos/student', { method: 'PUT', token, body: { photoIds: [photoId], studentId: kabo.id } });
  await api(base, `/api/albums/${album.id}/publish`, { method: 'POST', token });

  const family = await env.browser.newContext();
  const parent = await family.newPage();
  await parent.goto(`${base}/code/${kabo.code}`);
  await parent.getByRole('region', { name: 'Photos of Kabo Sello' }).getByRole('button', { name: /^Choose products for/ }).waitFor();
  const lists = await api<{ items: { id: number; productType: string; price: string }[] }[]>(base, `/api/schools/${school.id}/price-lists`);
  const print = lists[0]!.items.find((item) => item.productType === '10x15 Print')!;
  // The order and its payment request, sent by the family's own browser (its code cookie).
  const started = await parent.evaluate(
    async ({ schoolId, albumId, photo, product, email }) => {
      const post = async (path: string, body: unknown) => {
        const res = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), credentials: 'include' });
        if (!res.ok) throw new Error(`${path} -> ${res.status} ${await res.text()}`);
        return res.json();
      };
      const { order } = (await post('/api/orders', {
        schoolId,
        customerName: 'Neo Sello',
        customerEmail: email,
        studentName: 'Kabo Sello',
        totalAmount: product.price,
        items: [{ photoId: photo, albumId, productType: String(product.id), quantity: 1, unitPrice: product.price, totalPrice: product.price }],
      })) as { order: { id: string } };
      const request = (await post('/api/payment/initiate', { orderId: order.id })) as { processUrl: string; payRequestId: string; checksum: string };
      return { orderId: order.id, request };
    },
    { schoolId: school.id, albumId: album.id, photo: photoId, product: print, email: uniqueEmail('sold') },
  );
  await payOnSandbox(base, started.request);
  await expect.poll(async () => (await api<{ paymentStatus: string }>(base, `/api/orders/${started.orderId}`, { token })).paymentStatus, { timeout: 20_000 }).toBe('completed');
  await family.close();

  const batch = await api<{ id: number; documentsChangedAt: string | null }>(base, '/api/print-batches', { method: 'POST', token, body: { schoolId: school.id } });
  expect(batch.documentsChangedAt).toBeNull();
  return { token, school, album, kabo, lorato, photoId, orderId: started.orderId, batchId: batch.id };
}

/** The warning dialog: it says what will happen, naming the order and the batch. */
async function expectWarning(page: Page, setup: SoldSetup): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: SOLD_PHOTO_MSG.dialogTitle });
  await dialog.waitFor();
  const text = (await dialog.textContent()) ?? '';
  expect(text).toContain(setup.orderId);
  expect(text).toContain('"withdrawn"');
  expect(text).toContain('refund');
  expect(text).toContain(`already in batch #${setup.batchId} for the lab`);
  return dialog;
}

const studentOf = async (setup: SoldSetup, base: string) =>
  (await api<{ id: number; studentId: number | null }[]>(base, `/api/albums/${setup.album.id}/photos`, { token: setup.token })).find((photo) => photo.id === setup.photoId)?.studentId;
const changedAt = async (setup: SoldSetup, base: string) =>
  (await api<{ documentsChangedAt: string | null }>(base, `/api/print-batches/${setup.batchId}`, { token: setup.token })).documentsChangedAt;

async function openClass(page: Page, base: string, setup: SoldSetup): Promise<void> {
  await signIn(page, base);
  await page.goto(`${base}/photographer/schools/${setup.school.id}/classes`);
  await page.getByRole('button', { name: /^Grade 6B/ }).tap();
  await page.getByRole('tab', { name: 'Photos', selected: true }).waitFor();
}

describeJourney('staff: a photo a family paid for is not moved or withheld without a warning', (env) => {
  it('moving a sold, batched photo on the review sheet asks first; "Keep it" keeps it, "Move anyway" moves it and marks the batch changed', async () => {
    const base = env.server.url;
    const setup = await soldAndBatched(env, 'SoldMove');

    const context = await env.browser.newContext({ ...TABLET, acceptDownloads: true });
    const page = await context.newPage();
    await openClass(page, base, setup);
    await page.getByRole('tab', { name: REVIEW_MSG.reviewTab }).tap();
    const kaboSheet = page.getByRole('region', { name: 'Kabo Sello', exact: true });
    const loratoSheet = page.getByRole('region', { name: 'Lorato Sello', exact: true });
    await kaboSheet.getByRole('heading', { name: /^Kabo Sello: 1 photo\b/ }).waitFor();

    // Moved to Lorato: the warning comes first, and "Keep it" leaves the photo with Kabo.
    const move = kaboSheet.getByRole('combobox', { name: /DSC_0200\.JPG/ });
    await move.tap();
    await move.selectOption({ label: 'Lorato Sello' });
    const warning = await expectWarning(page, setup);
    await warning.getByRole('button', { name: SOLD_PHOTO_MSG.confirmMove }).waitFor();
    await warning.getByRole('button', { name: SOLD_PHOTO_MSG.keep }).tap();
    await warning.waitFor({ state: 'detached' });
    await kaboSheet.getByRole('heading', { name: /^Kabo Sello: 1 photo\b/ }).waitFor();
    expect(await loratoSheet.getByRole('combobox', { name: /DSC_0200\.JPG/ }).count()).toBe(0);
    expect(await studentOf(setup, base)).toBe(setup.kabo.id);
    expect(await changedAt(setup, base)).toBeNull();

    // Again, and "Move anyway": the photo is Lorato's, and the batch's documents changed.
    await move.tap();
    await move.selectOption({ label: 'Lorato Sello' });
    await (await expectWarning(page, setup)).getByRole('button', { name: SOLD_PHOTO_MSG.confirmMove }).tap();
    await toastWith(page, REVIEW_MSG.moved('Lorato Sello')).waitFor();
    await loratoSheet.getByRole('combobox', { name: /DSC_0200\.JPG/ }).waitFor();
    await kaboSheet.getByText(REVIEW_SCREEN_MSG.noPhotosOfChild).waitFor();
    expect(await studentOf(setup, base)).toBe(setup.lorato.id);
    expect(await changedAt(setup, base)).not.toBeNull();

    // The batch says so in the Print batches tab, and its packing list prints the CHANGED line.
    await page.goto(`${base}/order-management?view=batches`);
    const batch = page.getByRole('listitem', { name: `Batch #${setup.batchId}` });
    await batch.getByText(/^Changed .+: photos were withdrawn after this batch was made\. Print the packing list and labels again\.$/).waitFor();
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Packing list of batch #${setup.batchId}` }).tap()]);
    const packing = (await pdfPagesText(fs.readFileSync((await file.path())!))).join('\n').replace(/\s+/g, ' ');
    expect(packing).toMatch(/CHANGED .+: photos withdrawn since this batch was made\. This copy replaces earlier ones\./);
    await context.close();
  }, 150_000);

  it('"Back to draft" and "Do not publish" on a class and a child with a sold, batched photo ask first, and go on only when confirmed', async () => {
    const base = env.server.url;
    const setup = await soldAndBatched(env, 'SoldHide');
    const status = async () => (await api<ReviewSheet>(base, `/api/albums/${setup.album.id}/review`, { token: setup.token })).album.status;
    const hiddenKabo = async () => (await api<{ id: number; doNotPublish: boolean }[]>(base, `/api/albums/${setup.album.id}/students`, { token: setup.token })).find((s) => s.id === setup.kabo.id)?.doNotPublish;

    const context = await env.browser.newContext(TABLET);
    const page = await context.newPage();
    await openClass(page, base, setup);

    // Back to draft: its own question, then the warning; "Keep it" keeps the class published.
    const backToDraft = async () => {
      await page.getByRole('button', { name: REVIEW_MSG.unpublish }).tap();
      await page.getByRole('dialog', { name: REVIEW_SCREEN_MSG.unpublishConfirmTitle }).getByRole('button', { name: REVIEW_MSG.unpublish }).tap();
      return expectWarning(page, setup);
    };
    const draftWarning = await backToDraft();
    expect(await draftWarning.textContent()).toContain('photos of this class');
    await draftWarning.getByRole('button', { name: SOLD_PHOTO_MSG.keep }).tap();
    await draftWarning.waitFor({ state: 'detached' });
    expect(await status()).toBe('published');
    expect(await changedAt(setup, base)).toBeNull();
    await (await backToDraft()).getByRole('button', { name: SOLD_PHOTO_MSG.confirmDraft }).tap();
    await toastWith(page, REVIEW_SCREEN_MSG.unpublishedTitle).waitFor();
    await expect.poll(status).toBe('draft');
    expect(await changedAt(setup, base)).not.toBeNull();

    // Published again, Kabo's box "Do not publish" asks the same way.
    await api(base, `/api/albums/${setup.album.id}/publish`, { method: 'POST', token: setup.token });
    await page.goto(`${base}/photographer/schools/${setup.school.id}/classes`);
    await page.getByRole('button', { name: /^Grade 6B/ }).tap();
    await page.getByRole('tab', { name: 'Students' }).tap();
    const box = page.getByRole('checkbox', { name: 'Do not publish Kabo Sello' });
    await box.tap();
    const hideWarning = await expectWarning(page, setup);
    expect(await hideWarning.textContent()).toContain('photos of this child');
    await hideWarning.getByRole('button', { name: SOLD_PHOTO_MSG.keep }).tap();
    await hideWarning.waitFor({ state: 'detached' });
    expect(await hiddenKabo()).toBe(false);
    expect(await box.getAttribute('aria-checked')).toBe('false');
    await box.tap();
    await (await expectWarning(page, setup)).getByRole('button', { name: SOLD_PHOTO_MSG.confirmHide }).tap();
    await expect.poll(hiddenKabo).toBe(true);
    await expect.poll(() => box.getAttribute('aria-checked')).toBe('true');
    await context.close();
  }, 150_000);
});
