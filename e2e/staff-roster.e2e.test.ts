/**
 * The photographer's roster journey in class management: import a class list (a bad row is caught
 * in the preview, nothing is imported until it is fixed), the codes shown, the flyers PDF
 * downloaded and read back, assigning photos to a child with the unassigned filter, "do not
 * publish", the school's access mode, and erasing a child with confirmation.
 */
import fs from 'node:fs';
import { expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { pdfPagesText } from '../api/test/pdf';
import { toastWith } from './support/journey';
import { adminToken, api, signIn } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describeJourney('staff: class roster, flyers and assignment', (env) => {
  it('imports a roster with a preview, prints flyers, assigns photos and erases a student', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const demo = (await api<{ id: number; slug: string; albums: { id: number; name: string }[] }[]>(base, '/api/schools', { token })).find((s) => s.slug === 'demo-primary')!;
    const classA = demo.albums.find((album) => album.name === 'Class 1A')!;
    const context = await env.browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await signIn(page, base);
    await page.goto(`${base}/photographer/schools/${demo.id}/classes`);
    await page.getByRole('button', { name: /^Class 1A/ }).click();
    await page.getByRole('tab', { name: 'Students' }).click();
    await page.getByText('No students yet.', { exact: false }).waitFor();

    // Import: a bad e-mail is reported on its line and blocks the import.
    await page.getByRole('button', { name: 'Import Roster' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import roster: Class 1A' });
    const csv = 'Name,Student number,Guardian email\nKgalalelo Mosweu,A1,mma@example.com\nNthabiseng Ṱhabo,A2,not-an-email\nZoë Letsholo,,\n';
    await dialog.getByLabel('Paste the class list (CSV)').fill(csv);
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const preview = dialog.getByRole('table', { name: 'Roster preview' });
    await preview.getByRole('row', { name: /Nthabiseng Ṱhabo.*Valid email is required/ }).waitFor();
    await dialog.getByText('1 row(s) have problems').waitFor();
    expect(await dialog.getByRole('button', { name: /^Import/ }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel('Paste the class list (CSV)').fill(csv.replace('not-an-email', 'rra@example.com'));
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByText('3 student(s) ready to import.').waitFor();
    await dialog.getByRole('button', { name: 'Import 3 Students' }).click();
    await toastWith(page, '3 student(s) added to Class 1A').waitFor();
    const roster = page.getByRole('table', { name: 'Students of Class 1A' });
    for (const name of ['Kgalalelo Mosweu', 'Nthabiseng Ṱhabo', 'Zoë Letsholo']) await roster.getByRole('rowheader', { name: new RegExp(`^${name}`) }).waitFor();
    const students = await api<{ id: number; name: string; code: string }[]>(base, `/api/albums/${classA.id}/students`, { token });
    expect(students).toHaveLength(3);
    for (const student of students) await roster.getByText(student.code, { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Flyers: the PDF is downloaded and lists every child with their code.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Flyers (PDF)' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^flyers-Class-1A\.pdf$/);
    const pdf = fs.readFileSync((await download.path())!);
    const text = (await pdfPagesText(pdf)).join('\n').replace(/\s+/g, ' ');
    for (const student of students) {
      expect(text).toContain(student.name);
      expect(text).toContain(student.code);
    }
    await toastWith(page, 'Flyers for Class 1A were downloaded.').waitFor();

    // Do not publish.
    await roster.getByRole('checkbox', { name: 'Do not publish Zoë Letsholo' }).click();
    await toastWith(page, "Zoë Letsholo's photos are hidden from every family").waitFor();
    await expect.poll(async () => (await api<{ name: string; doNotPublish: boolean }[]>(base, `/api/albums/${classA.id}/students`, { token })).find((s) => s.name === 'Zoë Letsholo')?.doNotPublish).toBe(true);

    // Assign two unassigned photos to Kgalalelo; the unassigned filter then shows two fewer.
    await page.getByRole('tab', { name: 'Photos' }).click();
    await page.getByLabel('Show only unassigned (group) photos').click();
    const tiles = page.locator('.staff-photo');
    await tiles.first().waitFor();
    const before = await tiles.count();
    const picked = await tiles.locator('.photo-name').evaluateAll((names) => names.slice(0, 2).map((name) => name.textContent ?? ''));
    for (const name of picked) await page.getByRole('checkbox', { name: `Select ${name}` }).click();
    await page.getByLabel('Assign 2 selected photo(s) to').selectOption({ label: 'Kgalalelo Mosweu (A1)' });
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await toastWith(page, '2 photo(s) assigned to Kgalalelo Mosweu').waitFor();
    await expect.poll(() => tiles.count()).toBe(before - 2);
    await page.getByLabel('Show only unassigned (group) photos').click();
    await expect.poll(() => page.locator('.staff-photo', { hasText: 'Kgalalelo Mosweu' }).count()).toBe(2);
    const kgalalelo = students.find((s) => s.name === 'Kgalalelo Mosweu')!;
    const photos = await api<{ originalName: string; studentId: number | null }[]>(base, `/api/albums/${classA.id}/photos`, { token });
    expect(photos.filter((p) => p.studentId === kgalalelo.id).map((p) => p.originalName).sort()).toEqual([...picked].sort());

    // The school switches to private codes.
    await page.getByLabel('How families get in').selectOption('student_codes');
    await toastWith(page, "Families now need their child's code").waitFor();
    expect((await api<{ accessMode: string }>(base, '/api/schools/demo-primary')).accessMode).toBe('student_codes');

    // Erase Kgalalelo at the family's request, after confirming.
    await page.getByRole('tab', { name: 'Students' }).click();
    await roster.getByRole('button', { name: 'Erase Kgalalelo Mosweu' }).click();
    const confirm = page.getByRole('dialog', { name: 'Erase Kgalalelo Mosweu?' });
    await confirm.getByText('2 photo(s) are deleted for good').waitFor();
    await confirm.getByRole('button', { name: 'Erase Student' }).click();
    await toastWith(page, 'Kgalalelo Mosweu, their code and 2 photo(s) were erased.').waitFor();
    await roster.getByRole('rowheader', { name: /^Kgalalelo Mosweu/ }).waitFor({ state: 'detached' });
    const after = await api<{ originalName: string }[]>(base, `/api/albums/${classA.id}/photos`, { token });
    expect(after.map((p) => p.originalName)).not.toEqual(expect.arrayContaining(picked));
    expect(after).toHaveLength(photos.length - 2);
    await context.close();
  });
});
