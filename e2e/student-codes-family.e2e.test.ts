/**
 * A family with two children at a school that uses private student codes: the first code typed on
 * the home page, the second opened from its flyer's QR link (/code/{CODE}), a tab per child with
 * only that child's photos and the class's group photos, one cart with lines for both, checkout
 * with the children's names prefilled (a third child's other school waits for its own order), then
 * "Forget this child on this device".
 */
import { expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import type { Student } from '../api/contract/students';
import { ORDER_SUMMARY_MSG } from '../api/contract/messages';
import { APPROVED_CARD, goToCheckout, payWithCard, toastWith, uniqueEmail } from './support/journey';
import { adminToken, api } from './staff-helpers';
import { controlledPage, describeJourney } from './support/journey-suite';

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

interface DemoSchool {
  id: number;
  slug: string;
  albums: { id: number; name: string }[];
}

describeJourney('student codes: a family with two children', (env) => {
  it('unlocks two children, shows each only their own photos, orders for both and forgets one', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const schools = await api<(DemoSchool & { name: string })[]>(base, '/api/schools', { token });
    const demo = schools.find((school) => school.slug === 'demo-primary')!;
    const classA = demo.albums.find((album) => album.name === 'Class 1A')!;
    const classB = demo.albums.find((album) => album.name === 'Class 2B')!;
    const [kagiso, other] = (await api<{ students: Student[] }>(base, `/api/albums/${classA.id}/students`, { method: 'POST', token, body: { students: [{ name: 'Kagiso Dube' }, { name: 'Other Child' }] } })).students as [Student, Student];
    const [neo] = (await api<{ students: Student[] }>(base, `/api/albums/${classB.id}/students`, { method: 'POST', token, body: { students: [{ name: 'Neo Dube' }] } })).students as [Student];
    const photosA = await api<{ id: number }[]>(base, `/api/albums/${classA.id}/photos`, { token });
    const photosB = await api<{ id: number }[]>(base, `/api/albums/${classB.id}/photos`, { token });
    const kagisoPhotos = photosA.slice(0, 2).map((p) => p.id);
    const otherPhoto = photosA[2]!.id;
    const neoPhoto = photosB[0]!.id;
    await api(base, '/api/photos/student', { method: 'PUT', token, body: { photoIds: kagisoPhotos, studentId: kagiso.id } });
    await api(base, '/api/photos/student', { method: 'PUT', token, body: { photoIds: [otherPhoto], studentId: other.id } });
    await api(base, '/api/photos/student', { method: 'PUT', token, body: { photoIds: [neoPhoto], studentId: neo.id } });
    await api(base, `/api/schools/${demo.id}`, { method: 'PATCH', token, body: { accessMode: 'student_codes' } });
    // A cousin-like third child at another school (whose print ordering has closed).
    const sunrise = schools.find((school) => school.slug === 'sunrise-academy')!;
    const [lesedi] = (await api<{ students: Student[] }>(base, `/api/albums/${sunrise.albums[0]!.id}/students`, { method: 'POST', token, body: { students: [{ name: 'Lesedi Tau' }] } })).students as [Student];

    const { context, page } = await controlledPage(env);

    // The school password no longer opens this school.
    await page.goto(`${base}/school/demo-primary`);
    await page.getByText("Enter the code from your child's flyer.").waitFor();
    expect(await page.getByLabel('School Password').count()).toBe(0);

    // First child: typed on the home page, in lower case without the dash.
    await page.goto(`${base}/`);
    const codeCard = page.locator('.card', { has: page.getByRole('heading', { name: 'I have a student code' }) });
    await codeCard.getByLabel('Student code').fill(kagiso.code.replace('-', '').toLowerCase());
    await codeCard.getByRole('button', { name: "Open My Child's Photos" }).click();
    await page.waitForURL(`**/children?student=${kagiso.id}`);
    await toastWith(page, "Kagiso Dube's photos are ready").waitFor();
    await page.getByRole('tab', { name: 'Kagiso Dube', selected: true }).waitFor();
    const own = page.getByRole('region', { name: 'Photos of Kagiso Dube' });
    const group = page.getByRole('region', { name: 'Class 1A group photos' });
    await own.getByRole('button', { name: /^Choose products for/ }).first().waitFor();
    expect(await own.getByRole('button', { name: /^Choose products for/ }).count()).toBe(2);
    expect(await group.getByRole('button', { name: /^Choose products for/ }).count()).toBe(photosA.length - 3);
    const shown = await page.locator('img.protected').evaluateAll((images) => images.map((image) => (image as HTMLImageElement).getAttribute('src')));
    expect(shown).not.toContain(`/api/images/${otherPhoto}/thumbnail`);
    for (const id of kagisoPhotos) expect(shown).toContain(`/api/images/${id}/thumbnail`);

    // A print of Kagiso's own photo.
    await own.getByRole('button', { name: /^Choose products for/ }).first().click();
    let dialog = page.getByRole('dialog', { name: 'Select Products for Photo' });
    await dialog.getByRole('checkbox', { name: /^Glossy 10x15 Print|^10x15 Print/ }).first().click();
    await dialog.getByRole('button', { name: 'Add to Cart' }).click();
    await toastWith(page, 'Added to Cart').waitFor();

    // Second child: the flyer's QR code opens /code/{CODE}, unlocks and goes straight to Neo.
    await page.goto(`${base}/code/${neo.code}`);
    await page.waitForURL(`**/children?student=${neo.id}`);
    await page.getByRole('tab', { name: 'Neo Dube', selected: true }).waitFor();
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Kagiso Dube', 'Neo Dube']);
    const neoOwn = page.getByRole('region', { name: 'Photos of Neo Dube' });
    await neoOwn.getByRole('button', { name: /^Choose products for/ }).first().click();
    dialog = page.getByRole('dialog', { name: 'Select Products for Photo' });
    await dialog.getByRole('checkbox', { name: /Digital/ }).first().click();
    await dialog.getByRole('button', { name: 'Add to Cart' }).click();
    await toastWith(page, 'Added to Cart').waitFor();
    await page.getByRole('heading', { name: 'Selected Photos (2)' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Back on Kagiso's tab, the other child's photos are still nowhere.
    await page.getByRole('tab', { name: 'Kagiso Dube' }).click();
    await page.getByRole('region', { name: 'Photos of Kagiso Dube' }).waitFor();

    // A child at a second school: that school's photos become their own order.
    await page.goto(`${base}/code/${lesedi.code}`);
    await page.getByRole('tab', { name: 'Lesedi Tau', selected: true }).waitFor();
    await page.getByText('Print ordering has closed').waitFor();
    await page.getByRole('region', { name: /group photos$/ }).getByRole('button', { name: /^Choose products for/ }).first().click();
    dialog = page.getByRole('dialog', { name: 'Select Products for Photo' });
    await dialog.getByRole('checkbox', { name: /Digital/ }).first().click();
    await dialog.getByRole('button', { name: 'Add to Cart' }).click();
    await toastWith(page, 'Added to Cart').waitFor();
    await page.getByRole('heading', { name: 'Selected Photos (3)' }).waitFor();

    // Demo Primary's two lines are this order; Sunrise's waits in the cart. The student name is
    // prefilled with both children of this school.
    await goToCheckout(page);
    await page.getByText('Your cart has photos from 2 schools.', { exact: false }).waitFor();
    await page.getByText('Sunrise Academy (1 item) stay in your cart', { exact: false }).waitFor();
    expect(await page.getByLabel('Student name').inputValue()).toBe('Kagiso Dube, Neo Dube');
    await page.getByLabel('Your name').fill('Mpho Dube');
    await page.getByLabel('Email').fill(uniqueEmail('family'));
    const orderId = await payWithCard(page, APPROVED_CARD);
    await page.getByRole('heading', { name: 'Payment Successful' }).waitFor();
    // Read as this browser reads it: its order_access cookie opens the whole order (docs/access.md, "Reading an order").
    const order = (await (await page.context().request.get(`${base}/api/orders/${orderId}`)).json()) as { items: { photoId: number; studentId: number | null }[]; studentName: string };
    expect(order.studentName).toBe('Kagiso Dube, Neo Dube');
    expect(order.items.map((item) => [item.photoId, item.studentId])).toEqual([
      [kagisoPhotos[0], kagiso.id],
      [neoPhoto, neo.id],
    ]);
    // The confirmation page opened elsewhere (the id is printed on labels and lists): statuses and
    // the total only, nothing of the family.
    const elsewhere = await env.browser.newContext();
    const stranger = await elsewhere.newPage();
    await stranger.goto(`${base}/order-confirmation/${orderId}`);
    await stranger.getByRole('heading', { name: 'Payment Successful' }).waitFor();
    await stranger.getByText(ORDER_SUMMARY_MSG.signInForDetails).waitFor();
    expect(await stranger.getByText('Mpho Dube').count()).toBe(0);
    expect(await stranger.getByText('Kagiso Dube').count()).toBe(0);
    expect(await stranger.getByRole('heading', { name: 'Items' }).count()).toBe(0);
    await elsewhere.close();
    // The other school's line is still in the cart for its own order.
    await page.getByRole('button', { name: /^Cart, 1 item/ }).waitFor();

    // Marked "do not publish" after the family saw him: Neo's photo leaves the screen and the device.
    const cachedImages = () =>
      page.evaluate(async () => (await Promise.all((await caches.keys()).map(async (name) => (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname)))).flat());
    await page.goto(`${base}/children?student=${neo.id}`);
    await page.getByRole('region', { name: 'Photos of Neo Dube' }).getByRole('button', { name: /^Choose products for/ }).waitFor();
    await expect.poll(async () => (await cachedImages()).includes(`/api/images/${neoPhoto}/thumbnail`), { timeout: 15_000 }).toBe(true);
    // (His photo was paid for: staff confirmed the PHOTO_SOLD warning, docs/access.md "Moving a sold photo".)
    await api(base, `/api/students/${neo.id}`, { method: 'PATCH', token, body: { doNotPublish: true, confirm: true } });
    await page.reload();
    await page.getByText('No photos of Neo Dube yet.').waitFor();
    await expect.poll(async () => (await cachedImages()).includes(`/api/images/${neoPhoto}/thumbnail`), { timeout: 15_000 }).toBe(false);
    await api(base, `/api/students/${neo.id}`, { method: 'PATCH', token, body: { doNotPublish: false } });

    // Forget Kagiso: the grant, the tab and the cached images go.
    await page.goto(`${base}/children?student=${kagiso.id}`);
    await page.getByRole('region', { name: 'Photos of Kagiso Dube' }).getByRole('button', { name: /^Choose products for/ }).first().waitFor();
    await expect
      .poll(() => page.evaluate(async (ids) => {
        const urls = (await Promise.all((await caches.keys()).map(async (name) => (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname)))).flat();
        return ids.filter((id) => urls.includes(`/api/images/${id}/thumbnail`)).length;
      }, kagisoPhotos), { timeout: 15_000 })
      .toBe(2);
    await page.getByRole('button', { name: 'Forget this child on this device' }).click();
    const confirm = page.getByRole('dialog', { name: 'Forget Kagiso Dube on this device?' });
    await confirm.getByRole('button', { name: 'Forget Child' }).click();
    await toastWith(page, "Kagiso Dube's photos were removed from this device.").waitFor();
    await page.getByRole('tab', { name: 'Neo Dube', selected: true }).waitFor();
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Neo Dube', 'Lesedi Tau']);
    const cached = await page.evaluate(async () =>
      (await Promise.all((await caches.keys()).map(async (name) => (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname)))).flat(),
    );
    for (const id of kagisoPhotos) expect(cached).not.toContain(`/api/images/${id}/thumbnail`);
    const held = await page.evaluate(async () => (await (await fetch('/api/students/unlocked', { credentials: 'include' })).json()) as { student: { id: number } }[]);
    expect(held.map((child) => child.student.id)).toEqual([neo.id, lesedi.id]);
    expect(await page.evaluate(async (id) => (await fetch(`/api/images/${id}/thumbnail`, { credentials: 'include', cache: 'no-store' })).status, kagisoPhotos[0])).toBe(404);
    await context.close();
  });
});
