/**
 * The photographer's main journey: sign in -> create a school -> a price list -> a new class in the
 * upload tab -> 25 photos in three batches with progress -> the photos in the parent gallery -> an
 * order placed through the API in order management -> status At Printers -> the CSV export.
 */
import fs from 'node:fs';
import { expect, it } from 'vitest';
import { openClass, toastWith, unlockSchool } from './support/journey';
import { adminToken, api, makePhotos, photoCount, recordUploadUi, signIn } from './staff-helpers';
import { parseCsv } from '../pwa/test/parse-csv';
import { describeJourney } from './support/journey-suite';


describeJourney('staff journey', (env) => {
  it('takes a photographer from sign-in to an exported order', async () => {
    const context = await env.browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const log = await recordUploadUi(page);
    await signIn(page, env.server.url);
    for (const label of ['Total Photos', 'Active Orders', 'Revenue', 'Schools']) await page.locator('.stat-label', { hasText: label }).first().waitFor();
    await page.locator('.stat-value', { hasText: /^P\d+\.\d{2}$/ }).waitFor();

    // A school, validated with the spec's messages first.
    const stamp = Date.now();
    const schoolName = `Acacia Primary ${stamp}`;
    await page.getByRole('tab', { name: 'Schools' }).click();
    await page.getByRole('button', { name: 'Add School' }).click();
    await page.getByRole('button', { name: 'Create School' }).click();
    await page.getByText('School name is required').waitFor();
    // The default mode (school password) needs one (issue 29: a codes school needs none).
    await page.getByText('A school password (at least 6 characters) is required: families of this school use it to open the gallery').waitFor();
    await page.getByText('Valid email is required').waitFor();
    await page.getByLabel('School name').fill(schoolName);
    expect(await page.getByLabel('Slug (web address)').inputValue()).toBe(`acacia-primary-${stamp}`);
    await page.getByLabel('School password', { exact: true }).fill('acacia123');
    await page.getByLabel('Contact email').fill('office@acacia.example.com');
    await page.getByRole('button', { name: 'Create School' }).click();
    await toastWith(page, 'School Created').waitFor();
    await page.getByRole('heading', { name: schoolName }).waitFor();

    // A price list with four products: the card shows three, then +1 more.
    await page.getByRole('tab', { name: 'Price Lists' }).click();
    await page.getByRole('button', { name: 'Create Price List' }).click();
    await page.getByLabel('Price list name').fill(`Studio ${stamp}`);
    const products = [
      ['10x15 Print', '25'],
      ['Digital Copy', '15.50'],
      ['Large Frame', '55'],
      ['Canvas', '120'],
    ];
    for (const [index, [name, price]] of products.entries()) {
      if (index > 0) await page.getByRole('button', { name: 'Add Product' }).click();
      const row = page.getByRole('group', { name: `Product ${index + 1}` });
      await row.getByLabel('Product name').fill(name!);
      await row.getByLabel('Price (P)').fill(price!);
    }
    await page.getByRole('button', { name: 'Create Price List', exact: true }).last().click();
    await toastWith(page, 'Price List Created').waitFor();
    const card = page.locator('.staff-cards li', { hasText: `Studio ${stamp}` });
    await card.getByText('+1 more').waitFor();
    expect(await card.locator('.price-items li').count()).toBe(3);

    // A new class from the upload tab is created and selected.
    await page.getByRole('tab', { name: 'Upload Photos' }).click();
    await page.getByLabel('School', { exact: true }).selectOption({ label: schoolName });
    await page.getByLabel('New class').check();
    await page.getByLabel('New class name').fill('Grade 1A');
    await page.getByRole('button', { name: 'Create Class' }).click();
    await toastWith(page, 'Grade 1A created successfully. You can now upload photos.').waitFor();
    const classSelect = page.getByLabel('Class', { exact: true });
    await classSelect.waitFor();
    expect(await classSelect.locator('option:checked').textContent()).toContain('Grade 1A');

    // 25 photos: three batches, progress from 5 to 100, then the page reloads.
    await page.getByTestId('photo-input').setInputFiles(await makePhotos(25));
    await page.getByText('25 photo(s) selected').waitFor();
    await page.getByRole('img', { name: 'Preview of IMG_0001.JPG' }).waitFor();
    await page.getByRole('button', { name: 'Upload 25 Photos' }).click();
    await expect.poll(() => log.includes('toast:Upload Complete'), { timeout: 60_000 }).toBe(true);
    await page.waitForURL(/tab=upload/);
    await page.getByRole('tab', { name: 'Upload Photos', selected: true }).waitFor();
    for (const batch of ['1/3', '2/3', '3/3']) expect(log).toContain(`toast:Batch ${batch} Complete`);
    const progress = log.filter((entry) => entry.startsWith('progress:')).map((entry) => Number(entry.slice(9)));
    expect(progress.at(-1)).toBe(100);
    expect(progress.every((value, i) => i === 0 || value >= progress[i - 1]!)).toBe(true);
    expect(progress[0]).toBeGreaterThanOrEqual(5);

    const token = await adminToken(env.server.url);
    const schools = await api<{ id: number; slug: string; albums: { id: number; name: string }[]; name: string }[]>(env.server.url, '/api/schools', { token });
    const school = schools.find((candidate) => candidate.name === schoolName)!;
    const album = school.albums.find((candidate) => candidate.name === 'Grade 1A')!;
    expect(await photoCount(env.server.url, token, album.id)).toEqual({ total: 25, distinct: 25 });

    // A parent sees them.
    const parent = await env.browser.newContext();
    const parentPage = await parent.newPage();
    await unlockSchool(parentPage, env.server.url, schoolName, 'acacia123');
    await openClass(parentPage, 'Grade 1A');
    await expect.poll(() => parentPage.getByRole('button', { name: /^Choose products for/ }).count()).toBe(25);
    await parent.close();

    // An order through the API, with a name a CSV must quote.
    const verify = await fetch(`${env.server.url}/api/schools/${school.slug}/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ password: 'acacia123' }) });
    const cookie = (verify.headers.get('set-cookie') ?? '').split(';')[0]!;
    const photos = await api<{ id: number; originalName: string }[]>(env.server.url, `/api/albums/${album.id}/photos`, { token });
    const created = await api<{ order: { id: string } }>(env.server.url, '/api/orders', {
      method: 'POST',
      cookie,
      body: {
        schoolId: school.id,
        customerName: 'Dube, "Mpho"',
        customerEmail: `mpho.${stamp}@example.com`,
        studentName: 'Neo Dube',
        totalAmount: '65.00',
        items: [
          { photoId: photos[0]!.id, albumId: album.id, productType: 'print_10x15', quantity: 2, unitPrice: '25.00', totalPrice: '50.00' },
          { photoId: photos[1]!.id, albumId: album.id, productType: 'digital', quantity: 1, unitPrice: '15.00', totalPrice: '15.00' },
        ],
      },
    });
    const orderId = created.order.id;

    await page.getByRole('link', { name: 'Order Management' }).first().click();
    await page.getByRole('heading', { name: 'Order Management' }).waitFor();
    await page.getByLabel('Search').fill(orderId.toLowerCase());
    const row = page.getByRole('listitem', { name: `Order ${orderId}` });
    await row.getByText('10x15 Print × 2 — IMG_0001.JPG').waitFor();
    await row.getByRole('button', { name: 'View Details' }).click();
    const details = page.getByRole('dialog', { name: `Order #${orderId}` });
    await details.getByRole('cell', { name: 'IMG_0002.JPG' }).waitFor();
    await details.getByRole('cell', { name: '0002', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await row.getByLabel(`Status of order ${orderId}`).selectOption('at_printers');
    await toastWith(page, 'Status Updated').waitFor();
    expect((await api<{ orderStatus: string }>(env.server.url, `/api/orders/${orderId}`)).orderStatus).toBe('at_printers');
    // The order is unpaid: "Delivered" asks first, and "Keep status" leaves it as it was.
    await row.getByLabel(`Status of order ${orderId}`).selectOption('delivered');
    const ask = page.getByRole('dialog', { name: 'Mark an unpaid order delivered?' });
    await ask.getByText(`Order #${orderId} has not been paid (payment pending).`, { exact: false }).waitFor();
    await ask.getByRole('button', { name: 'Keep status' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(await row.getByLabel(`Status of order ${orderId}`).inputValue()).toBe('at_printers');
    expect((await api<{ orderStatus: string }>(env.server.url, `/api/orders/${orderId}`)).orderStatus).toBe('at_printers');

    // The export, column by column.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    await toastWith(page, 'Export Successful').waitFor();
    const today = new Date();
    const date = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    expect(download.suggestedFilename()).toBe(`orders_${date}.csv`);
    const rows = parseCsv(fs.readFileSync((await download.path())!, 'utf8'));
    expect(rows[0]).toEqual(['Order Number', 'School Name', 'Class/Album', 'Customer Name', 'Student Name', 'Date', 'Order Details', 'Total Amount', 'Payment Status', 'Order Status', 'Payment Method']);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual([orderId, schoolName, 'Grade 1A', 'Dube, "Mpho"', 'Neo Dube', date, '10x15 Print x2 (IMG_0001.JPG); Digital Copy x1 (IMG_0002.JPG)', '65.00', 'pending', 'At Printers', '']);

    // Asked again, "Mark delivered" does it (the family paid another way).
    await row.getByLabel(`Status of order ${orderId}`).selectOption('delivered');
    await ask.getByRole('button', { name: 'Mark delivered' }).click();
    await toastWith(page, `Order #${orderId} is now Delivered.`).waitFor();
    expect((await api<{ orderStatus: string }>(env.server.url, `/api/orders/${orderId}`)).orderStatus).toBe('delivered');
    await context.close();
  });
});
