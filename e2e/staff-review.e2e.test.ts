/**
 * Publish when ready, as the photographer lives it on a tablet: a class in a student-codes school
 * starts as a draft (a family holding a child's code is told its photos are not online yet); the
 * shoot is uploaded with a child's QR card; the Review tab (where a draft opens) shows each child's
 * photos and how they were placed; one photo is moved to another child with one choice; "Publish
 * class" says how many photos families will see; and the family then sees exactly their child's
 * photos. A later photo placed by its file name waits for review until "Release 1 new photo".
 */
import { expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import type { ReviewSheet } from '../api/contract/albums';
import { REVIEW_MSG } from '../api/contract/messages';
import { CLASS_SCREEN_MSG, REVIEW_SCREEN_MSG, STAFF_SMALL_MSG } from '../api/contract/staff-screen-messages';
import { flyerCardPhoto } from '../api/test/cards';
import { APPROVED_CARD, goToCheckout, payWithCard, toastWith, uniqueEmail } from './support/journey';
import { adminToken, api, createCodesClass, createSchoolAndClass, makeJpeg, makePhotos, photoCount, signIn, uploadBatch } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

const TABLET = { viewport: { width: 1024, height: 768 }, hasTouch: true };

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/**
 * Whether the page fits its viewport: the document's width, and the elements (outside any box that
 * scrolls or clips on its own) that reach past the right edge or out of their card, named so a
 * failure says which.
 */
async function horizontalFit(page: Page): Promise<{ width: number; scrollWidth: number; wide: string[] }> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const insideScroller = (element: Element) => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX !== 'visible') return true;
      }
      return false;
    };
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).join('.')}` : ''} "${(element.textContent ?? '').trim().slice(0, 40)}" right=${Math.round(element.getBoundingClientRect().right)}`;
    // Past the viewport's right edge, or past the card it sits in (a button sticking out of its panel).
    const edge = (element: Element) => {
      const card = element.parentElement?.closest('.card');
      return card ? Math.min(width, card.getBoundingClientRect().right) : width;
    };
    const past = (element: Element) => element.getBoundingClientRect().right > edge(element) + 0.5 && !insideScroller(element);
    // The innermost ones: what pushes the page wider, not every box around it.
    const wide = Array.from(document.body.querySelectorAll('*'))
      .filter((element) => past(element) && !Array.from(element.children).some(past))
      .map(name)
      .slice(0, 12);
    return { width, scrollWidth: document.documentElement.scrollWidth, wide };
  });
}

/** The class page fits a phone (390 px), a tablet held upright (768 px) and sideways (1024 px): no sideways scrolling. */
async function expectNoSidewaysScroll(page: Page, widths: readonly number[] = [390, 768, 1024]): Promise<void> {
  const before = page.viewportSize()!;
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 700 ? 844 : 768 });
    // Layout settles after the resize (the class list and the sheet reflow).
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const fit = await horizontalFit(page);
    expect({ width, wide: fit.wide }).toEqual({ width, wide: [] });
    expect(fit.scrollWidth, `page is ${fit.scrollWidth}px wide in a ${fit.width}px viewport`).toBeLessThanOrEqual(fit.width);
  }
  await page.setViewportSize(before);
}

describeJourney('staff: review a class and publish it when ready', (env) => {
  it('reviews a draft class on a tablet, moves a photo with one choice, publishes, and the family sees exactly their child', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const { school, album, students } = await createCodesClass(base, token, 'Review', 'Grade 2C', ['Neo Kgosi', 'Zoë Letsholo']);
    // A new class in a student-codes school waits for review.
    expect(album.status).toBe('draft');
    const neo = students.find((student) => student.name === 'Neo Kgosi')!;
    const zoe = students.find((student) => student.name === 'Zoë Letsholo')!;
    const card = await flyerCardPhoto(`${base}/code/${neo.code}`, 5, { yaw: 25, pitch: 0, roll: 10 });
    // The card, then two photos of Neo; one photo named after Zoë.
    const uploaded = await uploadBatch(base, token, album.id, [
      { name: 'IMG_0001.JPG', buffer: card },
      { name: 'IMG_0002.JPG', buffer: await makeJpeg(2) },
      { name: 'IMG_0003.JPG', buffer: await makeJpeg(3) },
      { name: 'Zoë Letsholo_0004.JPG', buffer: await makeJpeg(4) },
    ]);
    expect(uploaded.status).toBe(201);
    const idOf = new Map(uploaded.body.photos.map((photo) => [photo.originalName, photo.id]));
    const [second, third, zoesOwn] = ['IMG_0002.JPG', 'IMG_0003.JPG', 'Zoë Letsholo_0004.JPG'].map((name) => idOf.get(name)!);

    // The family already holds Neo's code: the draft class is not online yet.
    const family = await env.browser.newContext();
    const parent = await family.newPage();
    await parent.goto(`${base}/code/${neo.code}`);
    await parent.waitForURL(`**/children?student=${neo.id}`);
    await parent.getByText(REVIEW_MSG.notOnlineYet).waitFor();
    expect(await parent.getByRole('button', { name: /^Choose products for/ }).count()).toBe(0);

    // The photographer, on a tablet: the class is a draft and opens on its review sheet.
    const context = await env.browser.newContext(TABLET);
    const page = await context.newPage();
    await signIn(page, base);
    await page.goto(`${base}/photographer/schools/${school.id}/classes`);
    const classButton = page.getByRole('button', { name: /^Grade 2C/ });
    await classButton.getByText(REVIEW_MSG.draft, { exact: true }).waitFor();
    await classButton.click();
    await page.getByRole('tab', { name: REVIEW_MSG.reviewTab, selected: true }).waitFor();
    const neoSheet = page.getByRole('region', { name: 'Neo Kgosi', exact: true });
    const zoeSheet = page.getByRole('region', { name: 'Zoë Letsholo', exact: true });
    await neoSheet.getByRole('heading', { name: 'Neo Kgosi: 2 photos, placed by card IMG_0001.JPG' }).waitFor();
    await zoeSheet.getByRole('heading', { name: /^Zoë Letsholo: 1 photo\b/ }).waitFor();
    expect(await neoSheet.getByText(REVIEW_MSG.placedByCard('IMG_0001.JPG'), { exact: true }).count()).toBe(2);
    // In capture order, each with its thumbnail, after the card photo that placed them (staff read the code on it).
    const neoPhotos = neoSheet.getByRole('list', { name: 'Photos of Neo Kgosi' }).getByRole('img');
    expect(await neoPhotos.evaluateAll((images) => images.map((image) => image.getAttribute('alt') ?? ''))).toEqual([
      CLASS_SCREEN_MSG.runCardAlt('IMG_0001.JPG'),
      expect.stringContaining('IMG_0002.JPG'),
      expect.stringContaining('IMG_0003.JPG'),
    ]);
    await neoSheet.getByRole('listitem', { name: CLASS_SCREEN_MSG.runCard('IMG_0001.JPG') }).getByText(CLASS_SCREEN_MSG.runCardNote).waitFor();
    await expect.poll(() => neoPhotos.first().evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await expect.poll(() => neoPhotos.nth(1).evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    // The class page of a draft (status, publish time, tabs, the sheet) fits a phone and a tablet.
    await expectNoSidewaysScroll(page);
    // The students table: on a tablet each child is one row of the table with no sideways scrolling,
    // its actions on two lines at most; on a phone the table scrolls inside its own box.
    await page.getByRole('tab', { name: 'Students' }).tap();
    await page.getByRole('table', { name: 'Students of Grade 2C' }).waitFor();
    for (const width of [768, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      const fit = await page.getByRole('table', { name: 'Students of Grade 2C' }).evaluate((table) => {
        const wrap = table.parentElement!;
        return {
          sideways: wrap.scrollWidth - wrap.clientWidth,
          // Lines of the actions cell: button tops more than a few pixels apart (a pixel is rounding).
          lines: Array.from(table.querySelectorAll('tbody tr')).map((row) =>
            Array.from(row.querySelectorAll('td:last-child button'))
              .map((button) => button.getBoundingClientRect().top)
              .sort((a, b) => a - b)
              .filter((top, index, tops) => index === 0 || top - tops[index - 1]! > 8).length,
          ),
        };
      });
      expect({ width, ...fit }).toEqual({ width, sideways: 0, lines: [2, 2] });
    }
    await expectNoSidewaysScroll(page, [390]);
    await page.getByRole('tab', { name: 'Review' }).tap();
    // Every control a finger uses is at least 44 px tall.
    const move = neoSheet.getByRole('combobox', { name: /IMG_0003\.JPG/ });
    expect((await move.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect((await page.getByRole('button', { name: REVIEW_MSG.publishClass }).boundingBox())!.height).toBeGreaterThanOrEqual(44);

    // IMG_0003 is really Zoë: one choice moves it, and the sheet follows.
    await move.tap();
    await move.selectOption({ label: 'Zoë Letsholo' });
    await toastWith(page, REVIEW_MSG.moved('Zoë Letsholo')).waitFor();
    await neoSheet.getByRole('heading', { name: 'Neo Kgosi: 1 photo, placed by card IMG_0001.JPG' }).waitFor();
    await zoeSheet.getByRole('heading', { name: /^Zoë Letsholo: 2 photos\b/ }).waitFor();
    await zoeSheet.getByRole('combobox', { name: /IMG_0003\.JPG/ }).waitFor();

    // Publish: the confirmation says how many photos families will see.
    const sheet = await api<ReviewSheet>(base, `/api/albums/${album.id}/review`, { token });
    expect(sheet.counts.visibleNow).toBe(0);
    await page.getByRole('button', { name: REVIEW_MSG.publishClass }).tap();
    const confirm = page.getByRole('dialog', { name: REVIEW_MSG.publishConfirmTitle });
    await confirm.getByText(REVIEW_MSG.publishConfirm(sheet.counts.visibleAfterPublish)).waitFor();
    await confirm.getByRole('button', { name: REVIEW_MSG.publishClass }).tap();
    await toastWith(page, REVIEW_MSG.publishedTitle).waitFor();
    await classButton.getByText(REVIEW_MSG.published, { exact: true }).waitFor();
    await page.getByRole('button', { name: REVIEW_MSG.unpublish }).waitFor();
    expect((await api<ReviewSheet>(base, `/api/albums/${album.id}/review`, { token })).album.status).toBe('published');

    // The family now sees exactly Neo's photo: not the one moved to Zoë, not Zoë's, not the card.
    await parent.reload();
    const own = parent.getByRole('region', { name: 'Photos of Neo Kgosi' });
    await own.getByRole('button', { name: /^Choose products for/ }).first().waitFor();
    expect(await own.getByRole('button', { name: /^Choose products for/ }).count()).toBe(1);
    const shown = await parent.locator('img.protected').evaluateAll((images) => images.map((image) => image.getAttribute('src')));
    expect(shown).toEqual([`/api/images/${second}/thumbnail`]);
    for (const hidden of [third, zoesOwn, idOf.get('IMG_0001.JPG')]) {
      expect(await parent.evaluate(async (id) => (await fetch(`/api/images/${id}/thumbnail`, { credentials: 'include', cache: 'no-store' })).status, hidden)).not.toBe(200);
    }
    const placed = await api<{ id: number; studentId: number | null }[]>(base, `/api/albums/${album.id}/photos`, { token });
    expect(placed.find((photo) => photo.id === third)?.studentId).toBe(zoe.id);

    // Later photos of the published class placed by their file name wait for review, until released.
    const later = await uploadBatch(base, token, album.id, [{ name: 'Neo Kgosi_0005.JPG', buffer: await makeJpeg(5) }]);
    expect(later.status).toBe(201);
    const fifth = later.body.photos[0]!.id;
    await page.reload();
    await classButton.getByText(REVIEW_MSG.pendingCount(1)).waitFor();
    // A published class opens on its photos; its review sheet shows the photo waiting.
    await classButton.tap();
    await page.getByRole('tab', { name: 'Photos', selected: true }).waitFor();
    await page.getByRole('tab', { name: REVIEW_MSG.reviewTab }).tap();
    await neoSheet.getByText(REVIEW_MSG.pendingBadge).waitFor();
    // And so does a published class's, with "Release 1 new photo" and "Back to draft".
    await expectNoSidewaysScroll(page, [390, 1024]);
    await parent.reload();
    await own.getByRole('button', { name: /^Choose products for/ }).first().waitFor();
    expect(await own.getByRole('button', { name: /^Choose products for/ }).count()).toBe(1);
    await page.getByRole('button', { name: REVIEW_MSG.releaseNew(1) }).tap();
    const release = page.getByRole('dialog', { name: REVIEW_MSG.releaseConfirmTitle });
    await release.getByRole('button', { name: REVIEW_MSG.releaseNew(1) }).tap();
    await toastWith(page, REVIEW_MSG.releasedText(1)).waitFor();
    await expect.poll(() => classButton.getByText(REVIEW_MSG.pendingCount(1)).count()).toBe(0);
    await parent.reload();
    await expect.poll(() => own.getByRole('button', { name: /^Choose products for/ }).count()).toBe(2);
    expect(await parent.locator('img.protected').evaluateAll((images) => images.map((image) => image.getAttribute('src')))).toEqual([
      `/api/images/${second}/thumbnail`,
      `/api/images/${fifth}/thumbnail`,
    ]);
    // "Upload to this class" opens the upload tab on this school and class.
    await page.getByRole('link', { name: STAFF_SMALL_MSG.uploadToClass }).tap();
    await page.getByRole('tab', { name: 'Upload Photos', selected: true }).waitFor();
    expect(await page.getByLabel('School', { exact: true }).evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe(school.name);
    expect(await page.getByLabel('Class', { exact: true }).evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent)).toMatch(/^Grade 2C \(/);
    await family.close();
    await context.close();
  }, 150_000);

  it('a photo moved to another child after it was sold: the family reads "Photo withdrawn", staff see "Sold to another family"', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const { album, students } = await createCodesClass(base, token, 'Moved', 'Grade 5A', ['Kabo Sello', 'Lorato Sello']);
    const [kabo, lorato] = students as [(typeof students)[number], (typeof students)[number]];
    const uploaded = await uploadBatch(base, token, album.id, [{ name: 'DSC_0100.JPG', buffer: await makeJpeg(100) }]);
    const photoId = uploaded.body.photos[0]!.id;
    // Set up as a class already reviewed: the photo placed by staff, the class published.
    await api(base, '/api/photos/student', { method: 'PUT', token, body: { photoIds: [photoId], studentId: kabo.id } });
    await api(base, `/api/albums/${album.id}/publish`, { method: 'POST', token });

    // Kabo's family buys the digital copy.
    const family = await env.browser.newContext();
    const parent = await family.newPage();
    await parent.goto(`${base}/code/${kabo.code}`);
    await parent.getByRole('region', { name: 'Photos of Kabo Sello' }).getByRole('button', { name: /^Choose products for/ }).click();
    const dialog = parent.getByRole('dialog', { name: 'Select Products for Photo' });
    await dialog.getByRole('checkbox', { name: /Digital/ }).first().click();
    await dialog.getByRole('button', { name: 'Add to Cart' }).click();
    await toastWith(parent, 'Added to Cart').waitFor();
    await goToCheckout(parent);
    await parent.getByLabel('Your name').fill('Neo Sello');
    await parent.getByLabel('Email').fill(uniqueEmail('moved'));
    const orderId = await payWithCard(parent, APPROVED_CARD);
    await parent.getByRole('heading', { name: 'Payment Successful' }).waitFor();
    await parent.getByRole('link', { name: /^Download / }).waitFor();

    // The photo was Lorato's: staff move it after the sale, past the PHOTO_SOLD warning (docs/access.md, "Moving a sold photo").
    await api(base, '/api/photos/student', { method: 'PUT', token, body: { photoIds: [photoId], studentId: lorato.id, confirm: true } });
    await parent.reload();
    await parent.getByText(REVIEW_MSG.photoWithdrawn, { exact: true }).waitFor();
    await parent.getByText(REVIEW_MSG.photoWithdrawnHelp).waitFor();
    expect(await parent.getByRole('link', { name: /^Download / }).count()).toBe(0);
    expect(await parent.getByText('DSC_0100.JPG').count()).toBe(0);

    const context = await env.browser.newContext(TABLET);
    const page = await context.newPage();
    await signIn(page, base);
    await page.goto(`${base}/order-management`);
    await page.getByLabel('Search').fill(orderId.toLowerCase());
    const row = page.getByRole('listitem', { name: `Order ${orderId}` });
    await row.getByText(REVIEW_MSG.soldMoved).waitFor();
    await row.getByRole('button', { name: 'View Details' }).click();
    const details = page.getByRole('dialog', { name: `Order #${orderId}` });
    await details.getByRole('alert').filter({ hasText: REVIEW_MSG.soldMovedHelp }).waitFor();
    await details.getByRole('row', { name: /DSC_0100\.JPG/ }).getByText(REVIEW_SCREEN_MSG.movedLine).waitFor();
    await family.close();
    await context.close();
  }, 120_000);

  it('names each file the server refused in the upload queue, keeps the rest, and never sends either again', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const target = await createSchoolAndClass(base, token, 'refused');
    const context = await env.browser.newContext({ ...TABLET, serviceWorkers: 'block' });
    const page = await context.newPage();
    const sent: number[] = [];
    context.on('request', (request) => {
      if (request.url().endsWith('/api/photos/upload-batch')) sent.push(Date.now());
    });
    await signIn(page, base);
    await page.goto(`${base}/photographer-dashboard?tab=upload`);
    await page.getByLabel('School', { exact: true }).selectOption({ label: target.name });
    await page.getByLabel('Class', { exact: true }).selectOption({ label: `${target.className} (0 photos)` });
    const good = await makePhotos(3);
    // Named and typed as a JPEG, but not one: the browser lets it through, the server refuses it alone.
    const broken = { name: 'IMG_0007.JPG', mimeType: 'image/jpeg', buffer: Buffer.from('these bytes are not a photo at all'.repeat(20)) };
    await page.getByTestId('photo-input').setInputFiles([...good, broken]);
    await page.getByRole('button', { name: 'Upload 4 Photos' }).click();
    await toastWith(page, REVIEW_MSG.uploadRejectedTitle).waitFor({ timeout: 60_000 });
    const refused = page.getByRole('group', { name: `${REVIEW_MSG.uploadRejectedTitle}: ${target.className}` });
    await refused.getByText(/^IMG_0007\.JPG\b.+/).waitFor();
    await page.getByText(REVIEW_MSG.uploadPartly(3, 1), { exact: false }).first().waitFor();
    expect(await photoCount(base, token, target.albumId)).toEqual({ total: 3, distinct: 3 });
    expect(sent).toHaveLength(1);
    // Nothing is offered to retry, and a new visit sends nothing again.
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await page.reload();
    await refused.getByText(/^IMG_0007\.JPG\b.+/).waitFor();
    await page.waitForTimeout(2000);
    expect(sent).toHaveLength(1);
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('dialog', { name: 'Discard these uploads?' }).getByRole('button', { name: 'Discard' }).click();
    await refused.waitFor({ state: 'detached' });
    expect(await photoCount(base, token, target.albumId)).toEqual({ total: 3, distinct: 3 });
    await context.close();
  }, 120_000);
});
