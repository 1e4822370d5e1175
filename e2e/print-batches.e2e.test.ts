/**
 * Fulfilment: a parent pays for prints -> the photographer creates the school's print batch ->
 * downloads the lab's ZIP (streamed into a chosen file with progress, and through the browser's
 * own download manager), the packing list and the labels -> marks the batch ready for delivery,
 * then delivered -> the parent's My Orders says Delivered.
 */
import fs from 'node:fs';
import { expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { readZip } from '../api/test/zip';
import { pdfPagesText } from '../api/test/pdf';
import { parseCsv } from '../pwa/test/parse-csv';
import { resetLinkIn } from '../api/test/mail-catcher';
import { APPROVED_CARD, addFirstPhoto, fillCheckout, goToCheckout, openClass, payWithCard, toastWith, uniqueEmail, unlockSchool } from './support/journey';
import { signIn } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

const SCHOOL = 'Demo Primary School';
const STUDENT = 'Kgalalelo Ṱhabo';

/**
 * The save dialog of the File System Access API cannot be driven by automation, so the page gets
 * one that "picks" a file in the origin-private file system, which has the same writable-file API.
 */
async function pickFilesInPrivateStorage(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    Object.defineProperty(window, 'showSaveFilePicker', {
      configurable: true,
      value: async ({ suggestedName }: { suggestedName: string }) => {
        const root = await navigator.storage.getDirectory();
        (window as unknown as { __picked: string }).__picked = suggestedName;
        return root.getFileHandle(suggestedName, { create: true });
      },
    });
  });
}

/** Records the download progress bar's values from every change of the page. */
async function recordProgress(page: Page): Promise<number[]> {
  const values: number[] = [];
  await page.exposeFunction('__recordProgress', (value: number) => values.push(value));
  await page.addInitScript(() => {
    const record = (window as unknown as { __recordProgress: (value: number) => void }).__recordProgress;
    let last: string | null = null;
    new MutationObserver(() => {
      const value = document.querySelector('[role="progressbar"][aria-label^="Download progress"]')?.getAttribute('aria-valuenow') ?? null;
      if (value !== null && value !== last) record(Number(value));
      last = value;
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  return values;
}

async function savedInPrivateStorage(page: Page, name: string): Promise<Buffer> {
  const base64 = await page.evaluate(async (fileName) => {
    const root = await navigator.storage.getDirectory();
    const bytes = new Uint8Array(await (await (await root.getFileHandle(fileName)).getFile()).arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }, name);
  return Buffer.from(base64, 'base64');
}

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; data: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: file.suggestedFilename(), data: fs.readFileSync((await file.path())!) };
}

describeJourney('print batches', (env) => {
  it('takes a paid order to the lab and back to the school, and the parent sees Delivered', async () => {
    // A parent orders two prints and a digital copy of one photo, and pays.
    const parentContext = await env.browser.newContext();
    const parent = await parentContext.newPage();
    await unlockSchool(parent, env.server.url, SCHOOL, 'demo1234');
    await openClass(parent, 'Class 1A');
    await addFirstPhoto(parent, [{ name: '10x15 Print', quantity: 2 }, { name: 'Digital Copy' }]);
    await goToCheckout(parent);
    const email = uniqueEmail('batch');
    await fillCheckout(parent, { name: 'Naledi Mosweu', email, student: STUDENT });
    const orderId = await payWithCard(parent, APPROVED_CARD);
    await parent.getByRole('heading', { name: 'Payment Successful' }).waitFor({ timeout: 30_000 });
    const link = resetLinkIn((await env.mail.waitFor(email, 0, 20_000)).text).href;
    await parent.goto(link.replace(/^https?:\/\/[^/]+/, env.server.url));
    await parent.getByLabel('New password', { exact: true }).fill('secret123');
    await parent.getByLabel('Confirm password', { exact: true }).fill('secret123');
    await parent.getByRole('button', { name: 'Set Password' }).click();
    await parent.waitForURL('**/customer/orders');
    await parent.getByRole('heading', { name: `Order #${orderId}` }).waitFor();
    await parent.getByText('Payment Received', { exact: true }).waitFor();

    // The photographer batches the school's paid prints.
    const staffContext = await env.browser.newContext({ acceptDownloads: true });
    await pickFilesInPrivateStorage(staffContext);
    const page = await staffContext.newPage();
    const progress = await recordProgress(page);
    await signIn(page, env.server.url);
    await page.goto(`${env.server.url}/order-management`);
    await page.getByRole('tab', { name: 'Print batches' }).click();
    const ready = page.getByRole('list', { name: 'Orders ready to print per school' }).getByRole('listitem').filter({ hasText: SCHOOL });
    await ready.getByText('1 order(s) ready · 2 print(s)').waitFor();
    await page.getByRole('button', { name: `Create print batch for ${SCHOOL}` }).click();
    await toastWith(page, 'Print Batch Created').waitFor();
    await toastWith(page, '1 order(s) with 2 print(s) are now At Printers').waitFor();
    const batch = page.getByRole('listitem', { name: 'Batch #1' });
    await batch.getByText('At Printers', { exact: true }).waitFor();
    await batch.getByText('1 order(s) · 2 print(s)').waitFor();
    await ready.getByText('Nothing waiting to print').waitFor();
    expect(await page.getByRole('button', { name: `Create print batch for ${SCHOOL}` }).isDisabled()).toBe(true);

    // The ZIP, streamed into the file the photographer picked, with progress.
    const zipName = `Batch 1 files - ${SCHOOL}.zip`;
    await page.getByRole('button', { name: 'Download ZIP of batch #1' }).click();
    await toastWith(page, `${zipName} has been saved.`).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __picked: string }).__picked)).toBe(zipName);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((value, i) => value >= 0 && value <= 99 && (i === 0 || value >= progress[i - 1]!))).toBe(true);
    expect(await page.getByRole('progressbar').count()).toBe(0);
    const streamed = await savedInPrivateStorage(page, zipName);
    const entries = await readZip(streamed);
    const print = entries.find((entry) => entry.name.startsWith('10x15 Print/'))!;
    expect(print.name).toMatch(new RegExp(`^10x15 Print/${orderId}_${STUDENT}_IMG_\\d{4}_qty2\\.JPG$`));
    expect(print.data.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    expect(entries.map((entry) => entry.name).sort()).toEqual([print.name, 'order-sheet.csv']);
    const sheet = parseCsv(entries.find((entry) => entry.name === 'order-sheet.csv')!.data.toString('utf8').replace(/^\uFEFF/, ''));
    expect(sheet[1]).toEqual([orderId, SCHOOL, 'Class 1A', STUDENT, '10x15 Print', '2', print.name, expect.stringMatching(/^\d{4}$/), expect.stringMatching(/^IMG_\d{4}\.JPG$/)]);

    // The packing list and the labels.
    const packing = await download(page, () => page.getByRole('button', { name: 'Packing list of batch #1' }).click());
    expect(packing.name).toBe(`Batch 1 packing list - ${SCHOOL}.pdf`);
    // Long names may wrap inside their cell: the text is read across line breaks.
    const packingText = (await pdfPagesText(packing.data)).join('\n').replace(/\s+/g, ' ');
    for (const text of [`Packing list · ${SCHOOL}`, 'Batch #1', 'Class 1A · 1 order(s)', STUDENT, 'Naledi Mosweu', orderId, 'Page 1 of 1']) expect(packingText).toContain(text);
    const labels = await download(page, () => page.getByRole('button', { name: 'Labels of batch #1' }).click());
    expect(labels.name).toBe(`Batch 1 labels - ${SCHOOL}.pdf`);
    const labelText = (await pdfPagesText(labels.data)).join('\n').replace(/\s+/g, ' ');
    for (const text of [STUDENT, `Class 1A · ${SCHOOL}`, `Order #${orderId}`]) expect(labelText).toContain(text);

    // Ready for delivery, then delivered, each confirmed first.
    await page.getByRole('button', { name: 'Mark batch #1 ready for delivery' }).click();
    const confirmReady = page.getByRole('dialog', { name: 'Mark ready for delivery?' });
    await confirmReady.getByRole('button', { name: 'Mark Ready for Delivery' }).click();
    await toastWith(page, 'The orders of batch #1 are now Ready For Delivery.').waitFor();
    await batch.getByText('Ready For Delivery', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Mark batch #1 delivered' }).click();
    await page.getByRole('dialog', { name: 'Mark delivered?' }).getByRole('button', { name: 'Mark Delivered' }).click();
    await toastWith(page, 'The orders of batch #1 are now Delivered.').waitFor();
    await batch.getByText('Delivered', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Mark batch #1 delivered' }).count()).toBe(0);

    // The order's detail names its batch.
    await page.getByRole('tab', { name: 'Orders' }).click();
    const row = page.getByRole('listitem', { name: `Order ${orderId}` });
    await row.getByText('Batch #1').waitFor();
    await row.getByRole('button', { name: 'View Details' }).click();
    const details = page.getByRole('dialog', { name: `Order #${orderId}` });
    await details.getByText('Print batch').waitFor();
    await details.getByText('Batch #1').waitFor();
    await page.keyboard.press('Escape');

    // A browser without the save dialog gets the same ZIP through its own download manager.
    const plainContext = await env.browser.newContext({ acceptDownloads: true });
    await plainContext.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { configurable: true, value: undefined }));
    const plain = await plainContext.newPage();
    await signIn(plain, env.server.url);
    await plain.goto(`${env.server.url}/order-management?view=batches`);
    const viaBrowser = await download(plain, () => plain.getByRole('button', { name: 'Download ZIP of batch #1' }).click());
    await toastWith(plain, 'Download Started').waitFor();
    expect(viaBrowser.name).toBe(zipName);
    expect(viaBrowser.data.equals(streamed)).toBe(true);

    // The parent sees the status in words.
    await parent.reload();
    await parent.getByRole('heading', { name: `Order #${orderId}` }).waitFor();
    await parent.getByText('Delivered', { exact: true }).waitFor();
    await Promise.all([parentContext.close(), staffContext.close(), plainContext.close()]);
  });
}, { mail: true });
