/**
 * A second season on a tablet held upright (issue 41, the photographer's side): a student-codes
 * school's class form offers no class password; a roster with two children of one name is refused
 * until their numbers tell them apart, and every screen then shows the number next to the name;
 * the card photo on the review sheet opens large on a tap; a photo moves straight to another child;
 * the class page shows the one class chosen; and the upload's class picker counts the photos an
 * upload stored, without waiting for a reload.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MATCHING_MSG, REVIEW_MSG } from '../api/contract/messages';
import { CLASS_PAGE_MSG } from '../api/contract/class-page';
import { REVIEW_ACTIONS_MSG, SAME_NAME_MSG } from '../api/contract/same-names';
import { flyerCardPhoto } from '../api/test/cards';
import { toastWith } from './support/journey';
import { adminToken, api, makeJpeg, signIn, uploadBatch } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

const UPRIGHT_TABLET = { viewport: { width: 768, height: 1024 }, hasTouch: true };

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

describeJourney('staff: two children of one name, the review sheet and the class page', (env) => {
  it('tells twins apart everywhere, moves a photo straight to a child, and shows one class at a time', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const stamp = Date.now();
    const school = await api<{ id: number; name: string }>(base, '/api/schools', {
      method: 'POST',
      token,
      body: { name: `Francistown School ${stamp}`, slug: `francistown-${stamp}`, password: 'school123', contactEmail: 'office@example.com', accessMode: 'student_codes' },
    });
    const fourA = await api<{ id: number }>(base, '/api/albums', { method: 'POST', token, body: { name: 'Grade 4A', schoolId: school.id } });
    const fourB = await api<{ id: number }>(base, '/api/albums', { method: 'POST', token, body: { name: 'Grade 4B', schoolId: school.id } });
    await api(base, `/api/albums/${fourB.id}/students`, { method: 'POST', token, body: { students: [{ name: 'Lesego Tau' }] } });
    await api(base, `/api/albums/${fourB.id}/publish`, { method: 'POST', token });

    const context = await env.browser.newContext(UPRIGHT_TABLET);
    const page = await context.newPage();
    await signIn(page, base);
    await page.goto(`${base}/photographer/schools/${school.id}/classes`);

    // A student-codes school's class form offers no class password.
    await page.getByRole('button', { name: 'Create Class' }).tap();
    const form = page.getByRole('dialog', { name: 'Create class' });
    await form.getByText(CLASS_PAGE_MSG.noClassPassword).waitFor();
    expect(await form.getByLabel('Class password (optional)').count()).toBe(0);
    await form.getByRole('button', { name: 'Cancel' }).tap();

    // The roster: two Neo Kgosis without numbers are refused, with what to do about it.
    await page.getByRole('button', { name: /^Grade 4A/ }).tap();
    await page.getByRole('tab', { name: 'Students' }).tap();
    await page.getByRole('button', { name: 'Import Roster' }).tap();
    const importing = page.getByRole('dialog', { name: 'Import roster: Grade 4A' });
    await importing.getByLabel('Paste the class list (CSV)').fill('Name,Number\nNeo Kgosi,\nNeo Kgosi,\nKabo Dube,\n');
    await importing.getByRole('button', { name: 'Preview' }).tap();
    await importing.getByRole('table', { name: 'Roster preview' }).getByText(SAME_NAME_MSG.sameNameInFile(2)).waitFor();
    expect(await importing.getByRole('button', { name: /^Import/ }).isDisabled()).toBe(true);
    // With their numbers they come in.
    await importing.getByLabel('Paste the class list (CSV)').fill('Name,Number\nNeo Kgosi,12\nNeo Kgosi,31\nKabo Dube,\n');
    await importing.getByRole('button', { name: 'Preview' }).tap();
    await importing.getByText('3 student(s) ready to import.').waitFor();
    await importing.getByRole('button', { name: 'Import 3 Students' }).tap();
    await toastWith(page, '3 student(s) added to Grade 4A').waitFor();
    const students = await api<{ id: number; name: string; number: string | null; code: string }[]>(base, `/api/albums/${fourA.id}/students`, { token });
    const neo12 = students.find((student) => student.number === '12')!;
    const neo31 = students.find((student) => student.number === '31')!;

    // The shoot: Neo (12)'s card and two photos; later, a photo before Neo (31)'s card waits in the tray.
    const card12 = await flyerCardPhoto(`${base}/code/${neo12.code}`, 5, { yaw: 20, pitch: 0, roll: 5 });
    const card31 = await flyerCardPhoto(`${base}/code/${neo31.code}`, 6, { yaw: 15, pitch: 0, roll: 8 });
    expect(
      (
        await uploadBatch(base, token, fourA.id, [
          { name: 'IMG_0001.JPG', buffer: card12 },
          { name: 'IMG_0002.JPG', buffer: await makeJpeg(2) },
          { name: 'IMG_0003.JPG', buffer: await makeJpeg(3) },
        ])
      ).status,
    ).toBe(201);
    expect(
      (
        await uploadBatch(base, token, fourA.id, [
          { name: 'IMG_0010.JPG', buffer: await makeJpeg(10) },
          { name: 'IMG_0011.JPG', buffer: card31 },
          { name: 'IMG_0012.JPG', buffer: await makeJpeg(12) },
        ])
      ).status,
    ).toBe(201);

    // The review sheet names each Neo with his number.
    await page.reload();
    await page.getByRole('button', { name: /^Grade 4A/ }).tap();
    await page.getByRole('tab', { name: REVIEW_MSG.reviewTab }).tap();
    const first = region(page, SAME_NAME_MSG.withNumber('Neo Kgosi', '12'));
    const second = region(page, SAME_NAME_MSG.withNumber('Neo Kgosi', '31'));
    await first.getByRole('heading', { name: `${SAME_NAME_MSG.withNumber('Neo Kgosi', '12')}: 2 photos, placed by card IMG_0001.JPG` }).waitFor();
    await second.getByRole('heading', { name: /^Neo Kgosi \(31\): 1 photo\b/ }).waitFor();

    // The card photo opens large on a tap, so its code can be read.
    await first.getByRole('button', { name: REVIEW_ACTIONS_MSG.showCardLarge('IMG_0001.JPG') }).tap();
    const large = page.getByRole('dialog', { name: REVIEW_ACTIONS_MSG.cardLargeTitle('IMG_0001.JPG') });
    const image = large.getByRole('img', { name: REVIEW_ACTIONS_MSG.cardLargeTitle('IMG_0001.JPG') });
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(400);
    expect((await image.boundingBox())!.width).toBeGreaterThan(400);
    await large.getByRole('button', { name: 'Close' }).tap();

    // IMG_0003 is really the other Neo: "Move to another child", find him by his number, one tap.
    await first.getByRole('button', { name: REVIEW_ACTIONS_MSG.moveToChildLabel('Photo 2, IMG_0003.JPG') }).tap();
    const moving = page.getByRole('dialog', { name: REVIEW_ACTIONS_MSG.moveToChildTitle('Photo 2, IMG_0003.JPG') });
    // The child the photo is under is not offered; both others are, the Neo by his number.
    expect(await moving.getByRole('button', { name: SAME_NAME_MSG.withNumber('Neo Kgosi', '12') }).count()).toBe(0);
    await moving.getByRole('button', { name: 'Kabo Dube' }).waitFor();
    await moving.getByLabel(REVIEW_ACTIONS_MSG.findChild).fill('31');
    expect(await moving.getByRole('button', { name: 'Kabo Dube' }).count()).toBe(0);
    await moving.getByRole('button', { name: SAME_NAME_MSG.withNumber('Neo Kgosi', '31') }).tap();
    await toastWith(page, REVIEW_MSG.moved(SAME_NAME_MSG.withNumber('Neo Kgosi', '31'))).waitFor();
    await first.getByRole('heading', { name: /^Neo Kgosi \(12\): 1 photo\b/ }).waitFor();
    await second.getByRole('heading', { name: /^Neo Kgosi \(31\): 2 photos\b/ }).waitFor();
    const placed = await api<{ originalName: string; studentId: number | null }[]>(base, `/api/albums/${fourA.id}/photos`, { token });
    expect(placed.find((photo) => photo.originalName === 'IMG_0003.JPG')?.studentId).toBe(neo31.id);

    // The tray names the card's child with his number too.
    await page.getByRole('tab', { name: MATCHING_MSG.trayTitle }).tap();
    await page.getByRole('list', { name: 'Photos in the order they were taken' }).getByText(MATCHING_MSG.cardKnown(SAME_NAME_MSG.withNumber('Neo Kgosi', '31'))).waitFor();

    // The class page shows one class: its name heads the panel, with its own status and controls.
    const panelA = region(page, 'Grade 4A');
    await panelA.getByRole('heading', { name: 'Grade 4A', exact: true }).waitFor();
    await panelA.getByRole('button', { name: REVIEW_MSG.publishClass }).waitFor();
    await page.getByRole('button', { name: /^Grade 4B/ }).tap();
    const panelB = region(page, 'Grade 4B');
    await panelB.getByRole('heading', { name: 'Grade 4B', exact: true }).waitFor();
    // Chosen in the list above it, the class comes into view with its name focused.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Grade 4B');
    expect(await panelA.count()).toBe(0);
    const publishing = panelB.locator('.class-publishing');
    await publishing.getByText(REVIEW_MSG.published, { exact: true }).waitFor();
    expect(await publishing.getByText(REVIEW_MSG.draft, { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: REVIEW_MSG.publishClass }).count()).toBe(0);
    // "Back to draft" acts on the class shown.
    await panelB.getByRole('button', { name: REVIEW_MSG.unpublish }).tap();
    await page.getByRole('dialog').getByRole('button', { name: REVIEW_MSG.unpublish }).tap();
    await panelB.getByRole('button', { name: REVIEW_MSG.publishClass }).waitFor();
    const statuses = (await api<{ albums: { id: number; status: string }[] }>(base, `/api/schools/by-id/${school.id}`, { token })).albums;
    expect(statuses.find((album) => album.id === fourB.id)?.status).toBe('draft');
    expect(statuses.find((album) => album.id === fourA.id)?.status).toBe('draft');

    // The upload picker's count follows an upload at once, also one the server partly refused (no reload then).
    await page.goto(`${base}/photographer-dashboard?tab=upload`);
    await page.getByLabel('School', { exact: true }).selectOption({ label: school.name });
    const picker = page.getByLabel('Class', { exact: true });
    await picker.selectOption({ label: `Grade 4B (${CLASS_PAGE_MSG.photoCount(0)})` });
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);
    await page.getByTestId('photo-input').setInputFiles([
      { name: 'IMG_0020.JPG', mimeType: 'image/jpeg', buffer: await makeJpeg(20) },
      { name: 'IMG_0021.JPG', mimeType: 'image/jpeg', buffer: broken },
    ]);
    await page.getByRole('button', { name: 'Upload 2 Photos' }).tap();
    await toastWith(page, REVIEW_MSG.uploadRejectedTitle).waitFor({ timeout: 60_000 });
    await expect.poll(() => picker.locator('option:checked').textContent(), { timeout: 20_000 }).toBe(`Grade 4B (${CLASS_PAGE_MSG.photoCount(1)})`);
    await context.close();
  });
});
