/**
 * Every grant change refreshes every list it affects (issue 29): a sibling's code added from the
 * children page while the class's photo list is already on the device shows the sibling's photos
 * at once, with no reload; forgetting one child leaves the other's photos in place.
 */
import { expect, it } from 'vitest';
import type { Student } from '../api/contract/students';
import { toastWith } from './support/journey';
import { adminToken, api } from './staff-helpers';
import { PHONE, controlledPage, describeJourney } from './support/journey-suite';

interface DemoSchool {
  id: number;
  slug: string;
  albums: { id: number; name: string }[];
}

describeJourney('grant changes refresh the lists they affect', (env) => {
  it('adds a second child of the same class and shows their photos without a reload', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const schools = await api<DemoSchool[]>(base, '/api/schools', { token });
    const demo = schools.find((school) => school.slug === 'demo-primary')!;
    const classA = demo.albums.find((album) => album.name === 'Class 1A')!;
    const [thato, naledi] = (await api<{ students: Student[] }>(base, `/api/albums/${classA.id}/students`, { method: 'POST', token, body: { students: [{ name: 'Thato Moyo' }, { name: 'Naledi Moyo' }] } })).students as [Student, Student];
    const photos = await api<{ id: number }[]>(base, `/api/albums/${classA.id}/photos`, { token });
    await api(base, '/api/photos/student', { method: 'PUT', token, body: { photoIds: [photos[0]!.id], studentId: thato.id } });
    await api(base, '/api/photos/student', { method: 'PUT', token, body: { photoIds: [photos[1]!.id, photos[2]!.id], studentId: naledi.id } });
    await api(base, `/api/schools/${demo.id}`, { method: 'PATCH', token, body: { accessMode: 'student_codes' } });

    const { context, page } = await controlledPage(env, PHONE);
    await page.goto(`${base}/code/${thato.code}`);
    await page.waitForURL(`**/children?student=${thato.id}`);
    const thatoOwn = page.getByRole('region', { name: 'Photos of Thato Moyo' });
    await thatoOwn.getByRole('button', { name: /^Choose products for/ }).first().waitFor();
    expect(await thatoOwn.getByRole('button', { name: /^Choose products for/ }).count()).toBe(1);

    // The sister's code, typed on the same page: her photos are there at once.
    await page.getByRole('button', { name: 'Add Another Child' }).click();
    await page.getByLabel('Student code').fill(naledi.code);
    await page.getByRole('button', { name: 'Add Child' }).click();
    await toastWith(page, "Naledi Moyo's photos are ready").waitFor();
    await page.getByRole('tab', { name: 'Naledi Moyo', selected: true }).waitFor();
    const nalediOwn = page.getByRole('region', { name: 'Photos of Naledi Moyo' });
    await nalediOwn.getByRole('button', { name: /^Choose products for/ }).first().waitFor({ timeout: 10_000 });
    expect(await nalediOwn.getByRole('button', { name: /^Choose products for/ }).count()).toBe(2);
    expect(await page.getByText('No photos of Naledi Moyo yet.').count()).toBe(0);

    // Forgetting Thato: Naledi's photos stay, Thato's are gone from the class list.
    await page.getByRole('tab', { name: 'Thato Moyo' }).click();
    await page.getByRole('button', { name: 'Forget this child on this device' }).click();
    await page.getByRole('dialog', { name: 'Forget Thato Moyo on this device?' }).getByRole('button', { name: 'Forget Child' }).click();
    await page.getByRole('tab', { name: 'Naledi Moyo', selected: true }).waitFor();
    await nalediOwn.getByRole('button', { name: /^Choose products for/ }).first().waitFor();
    expect(await nalediOwn.getByRole('button', { name: /^Choose products for/ }).count()).toBe(2);
    const shown = await page.locator('img.protected').evaluateAll((images) => images.map((image) => (image as HTMLImageElement).getAttribute('src')));
    expect(shown).not.toContain(`/api/images/${photos[0]!.id}/thumbnail`);
    await context.close();
  });
});
