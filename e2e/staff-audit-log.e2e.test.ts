/**
 * Staff roles in the browser (docs/accounts.md, "What a photographer may not do" and "The audit
 * log"): a photographer marks a child do not publish but cannot clear it, is offered no class or
 * photo deletion and no Audit Log tab; the admin clears it and reads both changes in the log.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AUDIT_MSG } from '../api/contract/audit';
import { toastWith } from './support/journey';
import { adminToken, api, signIn } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

async function signInAs(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/photographer-dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('heading', { name: 'Photographer Dashboard' }).waitFor();
}

describeJourney('staff: admin-only actions and the audit log', (env) => {
  it('keeps clearing do not publish, deleting and the audit log to the admin, and logs who did what', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const demo = (await api<{ id: number; slug: string; albums: { id: number; name: string }[] }[]>(base, '/api/schools', { token })).find((s) => s.slug === 'demo-primary')!;
    const classB = demo.albums.find((album) => album.name !== 'Class 1A') ?? demo.albums[0]!;
    const photographer = { email: `lerato-${Date.now()}@studio.example`, password: 'shoot-day-123', firstName: 'Lerato', lastName: 'Sebego', role: 'photographer' };
    await api(base, '/api/photographers', { method: 'POST', token, body: photographer });
    await api(base, `/api/albums/${classB.id}/students`, { method: 'POST', token, body: { students: [{ name: 'Boitumelo Kgosi' }] } });

    // The photographer marks the child do not publish, then cannot untick it.
    const shooter = await env.browser.newContext();
    const page = await shooter.newPage();
    await signInAs(page, base, photographer.email, photographer.password);
    await expect(page.getByRole('tab', { name: AUDIT_MSG.tab }).count()).resolves.toBe(0);
    await page.goto(`${base}/photographer/schools/${demo.id}/classes`);
    await page.getByRole('button', { name: new RegExp(`^${classB.name}`) }).click();
    await expect(page.getByRole('button', { name: `Delete ${classB.name}` }).count()).resolves.toBe(0);
    await page.getByRole('tab', { name: 'Students' }).click();
    const box = page.getByRole('checkbox', { name: 'Do not publish Boitumelo Kgosi' });
    await box.click();
    await toastWith(page, "Boitumelo Kgosi's photos are hidden from every family").waitFor();
    await expect.poll(() => box.isDisabled()).toBe(true);
    expect(await box.getAttribute('title')).toBe(AUDIT_MSG.clearDoNotPublishAdminOnly);
    await page.getByRole('tab', { name: 'Photos' }).click();
    await expect(page.getByRole('button', { name: /^Delete Selected/ }).count()).resolves.toBe(0);
    await shooter.close();

    // The admin clears it, then reads both changes in the Audit Log tab.
    const context = await env.browser.newContext();
    const admin = await context.newPage();
    await signIn(admin, base);
    await admin.goto(`${base}/photographer/schools/${demo.id}/classes`);
    await admin.getByRole('button', { name: new RegExp(`^${classB.name}`) }).click();
    await admin.getByRole('tab', { name: 'Students' }).click();
    const adminBox = admin.getByRole('checkbox', { name: 'Do not publish Boitumelo Kgosi' });
    await adminBox.click();
    await toastWith(admin, "Boitumelo Kgosi's photos can be seen by their family again.").waitFor();
    await admin.goto(`${base}/photographer-dashboard`);
    await admin.getByRole('tab', { name: AUDIT_MSG.tab }).click();
    const log = admin.getByRole('table', { name: AUDIT_MSG.title });
    await log.getByText(`${AUDIT_MSG.action.do_not_publish_cleared}: Boitumelo Kgosi`).waitFor();
    await log.getByText(`${AUDIT_MSG.action.do_not_publish_set}: Boitumelo Kgosi`).waitFor();
    const rows = await log.locator('tbody tr').allTextContents();
    expect(rows[0]).toContain('admin@example.com');
    expect(rows[1]).toContain(photographer.email);
    await context.close();
  }, 120_000);
});
