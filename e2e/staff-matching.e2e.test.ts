/**
 * Matching at the shoot, as the photographer lives it: upload a card photo with the photos of a
 * class, read how many found their child (by card and by file name) and how many wait in the
 * unmatched tray, open the tray and place the waiting photo (a photo before a card is never offered
 * to that card's child); then mark a photo whose card the scan missed as a card photo, see the photo
 * after it move to the tray, and delete it there.
 */
import { expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import { flyerCardPhoto } from '../api/test/cards';
import { MATCHING_MSG } from '../api/contract/messages';
import { STAFF_SMALL_MSG, TRAY_MSG } from '../api/contract/staff-screen-messages';
import { toastWith } from './support/journey';
import { adminToken, api, createSchoolAndClass, makeJpeg, signIn } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

describeJourney('staff: matching photos to children at the shoot', (env) => {
  it('uploads a card with photos, shows the counts, places the tray photo (never by the card after it), marks a missed card and deletes the photo it sends to the tray', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const made = await createSchoolAndClass(base, token, 'matching');
    const { students } = await api<{ students: { id: number; name: string; code: string }[] }>(base, `/api/albums/${made.albumId}/students`, {
      method: 'POST',
      token,
      body: { students: [{ name: 'Neo Kgosi' }, { name: 'Zoë Letsholo' }] },
    });
    const neo = students.find((student) => student.name === 'Neo Kgosi')!;
    const card = await flyerCardPhoto(`${base}/code/${neo.code}`, 5, { yaw: 25, pitch: 0, roll: 10 });
    const files = [
      { name: 'IMG_0001.JPG', mimeType: 'image/jpeg', buffer: await makeJpeg(1) },
      { name: 'IMG_0002.JPG', mimeType: 'image/jpeg', buffer: card },
      { name: 'IMG_0003.JPG', mimeType: 'image/jpeg', buffer: await makeJpeg(3) },
      { name: 'IMG_0004.JPG', mimeType: 'image/jpeg', buffer: await makeJpeg(4) },
      { name: 'Zoë Letsholo_0005.JPG', mimeType: 'image/jpeg', buffer: await makeJpeg(5) },
    ];

    const context = await env.browser.newContext();
    const page = await context.newPage();
    await signIn(page, base);
    await page.goto(`${base}/photographer-dashboard?tab=upload`);
    await page.getByLabel('School', { exact: true }).selectOption({ label: made.name });
    await page.getByLabel('Class', { exact: true }).selectOption({ label: `${made.className} (0 photos)` });
    await page.getByTestId('photo-input').setInputFiles(files);
    await page.getByText('5 photo(s) selected').waitFor();
    // A mark on this document: gone once the page has reloaded.
    await page.evaluate(() => Object.assign(window, { beforeReload: true }));
    await page.getByRole('button', { name: 'Upload 5 Photos' }).click();
    await toastWith(page, '2 matched by card, 1 by file name; 1 photo waits in the unmatched tray').waitFor({ timeout: 60_000 });

    // After the page reloads (1.5 s after the upload) the counts are still there, read from the
    // upload queue's database. Waiting for the reload keeps it from landing in the steps below.
    await expect
      .poll(() => page.evaluate(() => 'beforeReload' in window).catch(() => true), { timeout: 20_000 })
      .toBe(false);
    await page.waitForURL(/tab=upload/);
    const summary = page.getByRole('region', { name: 'Matching of the latest upload' });
    await summary.getByText('2 matched by card, 1 by file name; 1 photo waits in the unmatched tray.').waitFor();
    await summary.getByText('1 card photo (never shown to families).').waitFor();
    // How many files the session stored, and that no child of the class is without a photo.
    await summary.getByText(`${STAFF_SMALL_MSG.filesUploaded(5)}.`).waitFor();
    await summary.getByText(STAFF_SMALL_MSG.everyChildHasPhotos).waitFor();
    await summary.getByRole('link', { name: 'Open the unmatched tray' }).click();

    // The tray: the waiting photo, then the card after it. A photo before a card is not that card's
    // child, so Neo is not offered; staff choose from the class list.
    await page.getByRole('tab', { name: 'Unmatched tray', selected: true }).waitFor();
    await page.getByRole('heading', { name: /Unmatched tray \(1 waiting\)/ }).waitFor();
    const strip = page.getByRole('list', { name: 'Photos in the order they were taken' });
    await strip.getByText('Card: Neo Kgosi').waitFor();
    await strip.getByRole('img', { name: 'IMG_0001.JPG' }).waitFor();
    const first = strip.getByRole('group', { name: 'Assign IMG_0001.JPG' });
    expect(await first.getByRole('button', { name: /Neo Kgosi|^Guess/ }).count()).toBe(0);
    await first.getByRole('combobox', { name: 'Assign IMG_0001.JPG to a student' }).selectOption({ label: 'Neo Kgosi' });
    await toastWith(page, 'Assigned to Neo Kgosi').waitFor();
    await page.getByRole('heading', { name: /Unmatched tray \(0 waiting\)/ }).waitFor();

    type Listed = { id: number; originalName: string; studentId: number | null; card?: boolean; inTray?: boolean };
    const listed = async () => new Map((await api<Listed[]>(base, `/api/albums/${made.albumId}/photos`, { token })).map((photo) => [photo.originalName, photo]));
    let byName = await listed();
    expect(byName.get('IMG_0001.JPG')?.studentId).toBe(neo.id);
    expect(byName.get('IMG_0001.JPG')?.inTray).toBeUndefined();
    expect(byName.get('IMG_0002.JPG')?.card).toBe(true);
    expect(byName.get('IMG_0003.JPG')?.studentId).toBe(neo.id);
    expect(byName.get('IMG_0004.JPG')?.studentId).toBe(neo.id);
    expect(byName.get('Zoë Letsholo_0005.JPG')?.studentId).toBe(students.find((student) => student.name === 'Zoë Letsholo')!.id);

    // On the review sheet IMG_0003 turns out to be another child's card the scan could not read:
    // "This is a card photo" (asked first) and the photo taken after it leaves Neo for the tray.
    await page.getByRole('tab', { name: 'Review' }).click();
    const neoSheet = page.getByRole('region', { name: 'Neo Kgosi', exact: true });
    await neoSheet.getByRole('heading', { name: 'Neo Kgosi: 3 photos, placed by card IMG_0002.JPG' }).waitFor();
    await neoSheet.getByRole('combobox', { name: /IMG_0003\.JPG/ }).selectOption({ label: TRAY_MSG.markCard });
    const asking = page.getByRole('dialog', { name: TRAY_MSG.markCardTitle });
    await asking.getByText(TRAY_MSG.markCardConfirm('IMG_0003.JPG')).waitFor();
    await asking.getByRole('button', { name: TRAY_MSG.markCard }).click();
    await toastWith(page, TRAY_MSG.marked('IMG_0003.JPG')).waitFor();
    await neoSheet.getByRole('heading', { name: /^Neo Kgosi: 1 photo\b/ }).waitFor();
    await page.getByRole('heading', { name: 'Unmatched tray (1)' }).waitFor();
    byName = await listed();
    expect(byName.get('IMG_0003.JPG')).toMatchObject({ card: true, studentId: null });
    expect(byName.get('IMG_0004.JPG')).toMatchObject({ studentId: null, inTray: true });
    expect(byName.get('IMG_0001.JPG')?.studentId).toBe(neo.id);

    // The tray shows it after the new card, whose code is nobody's here: no guess, only a choice.
    await page.getByRole('tab', { name: 'Unmatched tray' }).click();
    await page.getByRole('heading', { name: /Unmatched tray \(1 waiting\)/ }).waitFor();
    await strip.getByText(MATCHING_MSG.cardUnknown).waitFor();
    expect(await strip.getByRole('img').evaluateAll((images) => images.map((image) => image.getAttribute('alt')))).toEqual(['Card photo IMG_0003.JPG', 'IMG_0004.JPG']);
    expect(await strip.getByRole('group', { name: 'Assign IMG_0004.JPG' }).getByRole('button', { name: /^Guess/ }).count()).toBe(0);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([]);

    // It is a blurred frame: deleted from the tray, after a confirmation.
    await strip.getByRole('group', { name: TRAY_MSG.otherActions('IMG_0004.JPG') }).getByRole('button', { name: TRAY_MSG.deletePhoto }).click();
    const deleting = page.getByRole('dialog', { name: TRAY_MSG.deletePhotoTitle });
    await deleting.getByRole('button', { name: TRAY_MSG.deletePhotoConfirmLabel }).click();
    await toastWith(page, TRAY_MSG.photoDeleted('IMG_0004.JPG')).waitFor();
    await page.getByRole('heading', { name: /Unmatched tray \(0 waiting\)/ }).waitFor();
    byName = await listed();
    expect(byName.has('IMG_0004.JPG')).toBe(false);
    expect([...byName.keys()].sort()).toEqual(['IMG_0001.JPG', 'IMG_0002.JPG', 'IMG_0003.JPG', 'Zoë Letsholo_0005.JPG']);
    await context.close();
  }, 120_000);
});
