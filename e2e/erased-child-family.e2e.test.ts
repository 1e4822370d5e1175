/**
 * The family of a child erased at the school's request (docs/access.md, "What the family of an
 * erased child sees"), on a phone: their family gallery says the photos were removed at the
 * school's request, does not ask for the code again, offers no e-mails for the child, and lets
 * them take the child off the device.
 */
import { expect, it } from 'vitest';
import { CHILD_REMOVED_MSG } from '../api/contract/child-removed';
import { CONSENT } from '../api/contract/messages';
import type { Student } from '../api/contract/students';
import { adminToken, api } from './staff-helpers';
import { PHONE, controlledPage, describeJourney } from './support/journey-suite';

interface DemoSchool {
  slug: string;
  albums: { id: number; name: string }[];
}

describeJourney("an erased child's family", (env) => {
  it('is told the photos were removed at the school\'s request, not to enter the code again, and is offered no e-mails for the child', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const schools = await api<DemoSchool[]>(base, '/api/schools', { token });
    const classA = schools.find((school) => school.slug === 'demo-primary')!.albums.find((album) => album.name === 'Class 1A')!;
    const [child] = (await api<{ students: Student[] }>(base, `/api/albums/${classA.id}/students`, { method: 'POST', token, body: { students: [{ name: 'Onalenna Erased' }] } })).students as [Student];

    const { context, page } = await controlledPage(env, PHONE);
    await page.goto(`${base}/code/${child.code}`);
    await page.waitForURL(`**/children?student=${child.id}`);
    await page.getByRole('tab', { name: 'Onalenna Erased', selected: true }).waitFor();
    // Before: the offer to be e-mailed is there.
    await page.getByRole('region', { name: CONSENT.offer }).waitFor();

    await api(base, `/api/students/${child.id}/erase`, { method: 'POST', token });
    await page.reload();
    await page.getByText(CHILD_REMOVED_MSG.removed).waitFor();
    await page.getByText(CHILD_REMOVED_MSG.noCode).waitFor();
    // Not asked for the code again, and nothing offers e-mails about the child.
    expect(await page.getByText('Enter the code from the flyer again', { exact: false }).count()).toBe(0);
    expect(await page.getByLabel('Student code').count()).toBe(0);
    expect(await page.getByRole('region', { name: CONSENT.offer }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // Still said after the grant that named the child has gone (the device remembers).
    await context.clearCookies();
    await page.reload();
    await page.getByText(CHILD_REMOVED_MSG.removed).waitFor();

    await page.getByRole('button', { name: CHILD_REMOVED_MSG.forget }).click();
    await page.getByRole('heading', { name: "Your Children's Photos" }).waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('unlockedChildren'))).not.toContain('Onalenna');
    await context.close();
  });
});
