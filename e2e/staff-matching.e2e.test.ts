/**
 * Matching at the shoot, as the photographer lives it: upload a card photo with the photos of a
 * class, read how many found their child (by card and by file name) and how many wait in the
 * unmatched tray, open the tray and place the waiting photo with one tap.
 */
import { expect, it } from 'vitest';
import { generateCardPhoto } from '../api/src/media/generate-card';
import { FLYER_LAYOUT } from '../api/src/students/flyers';
import { toastWith } from './support/journey';
import { adminToken, api, createSchoolAndClass, makeJpeg, signIn } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

const mm = (points: number) => (points * 25.4) / 72;

describeJourney('staff: matching photos to children at the shoot', (env) => {
  it('uploads a card with photos, shows the counts, and assigns the tray photo with one tap', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const made = await createSchoolAndClass(base, token, 'matching');
    const { students } = await api<{ students: { id: number; name: string; code: string }[] }>(base, `/api/albums/${made.albumId}/students`, {
      method: 'POST',
      token,
      body: { students: [{ name: 'Neo Kgosi' }, { name: 'Zoë Letsholo' }] },
    });
    const neo = students.find((student) => student.name === 'Neo Kgosi')!;
    const card = await generateCardPhoto({
      text: `${base}/code/${neo.code}`,
      seed: 5,
      width: 1600,
      height: 1200,
      distanceMm: 1600,
      qrMm: mm(FLYER_LAYOUT.qrSize),
      cardMm: { width: mm(FLYER_LAYOUT.cardWidth), height: mm(FLYER_LAYOUT.cardHeight) },
      qrOffsetMm: { x: mm(FLYER_LAYOUT.padding), y: mm(FLYER_LAYOUT.padding) },
      yaw: 25,
      roll: 10,
    });
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
    await page.getByRole('button', { name: 'Upload 5 Photos' }).click();
    await toastWith(page, '2 matched by card, 1 by file name; 1 photo waits in the unmatched tray').waitFor({ timeout: 60_000 });

    // After the page reloads the counts are still there, read from the upload queue's database.
    await page.waitForURL(/tab=upload/);
    const summary = page.getByRole('region', { name: 'Matching of the latest upload' });
    await summary.getByText('2 matched by card, 1 by file name; 1 photo waits in the unmatched tray.').waitFor();
    await summary.getByText('1 card photo (never shown to families).').waitFor();
    await summary.getByRole('link', { name: 'Open the unmatched tray' }).click();

    // The tray: the waiting photo, then the card after it; the card's child is one tap away.
    await page.getByRole('tab', { name: 'Unmatched tray', selected: true }).waitFor();
    await page.getByRole('heading', { name: /Unmatched tray \(1 waiting\)/ }).waitFor();
    const strip = page.getByRole('list', { name: 'Photos in the order they were taken' });
    await strip.getByText('Card: Neo Kgosi').waitFor();
    await strip.getByRole('img', { name: 'IMG_0001.JPG' }).waitFor();
    await strip.getByRole('group', { name: 'Assign IMG_0001.JPG' }).getByRole('button', { name: 'Neo Kgosi' }).click();
    await toastWith(page, 'Assigned to Neo Kgosi').waitFor();
    await page.getByRole('heading', { name: /Unmatched tray \(0 waiting\)/ }).waitFor();

    const photos = await api<{ originalName: string; studentId: number | null; card?: boolean; inTray?: boolean }[]>(base, `/api/albums/${made.albumId}/photos`, { token });
    const byName = new Map(photos.map((photo) => [photo.originalName, photo]));
    expect(byName.get('IMG_0001.JPG')?.studentId).toBe(neo.id);
    expect(byName.get('IMG_0001.JPG')?.inTray).toBeUndefined();
    expect(byName.get('IMG_0002.JPG')?.card).toBe(true);
    expect(byName.get('IMG_0003.JPG')?.studentId).toBe(neo.id);
    expect(byName.get('Zoë Letsholo_0005.JPG')?.studentId).toBe(students.find((student) => student.name === 'Zoë Letsholo')!.id);
    await context.close();
  }, 120_000);
});
