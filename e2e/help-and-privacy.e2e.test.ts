/**
 * No dead links (issue 29): every footer link, Support and "Contact your school" lead somewhere
 * real on a phone: the privacy notice (what is kept about children and guardians, how long,
 * erasure under the Botswana Data Protection Act 2024), the help page's answers, and an e-mail to
 * the chosen school's office.
 */
import { expect, it } from 'vitest';
import { adminToken, api } from './staff-helpers';
import { PHONE, describeJourney } from './support/journey-suite';

describeJourney('help, privacy and contact links', (env) => {
  it('gives every footer link, Support and Contact your school a real destination', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const demo = (await api<{ slug: string; contactEmail: string }[]>(base, '/api/schools', { token })).find((school) => school.slug === 'demo-primary')!;
    const context = await env.browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.getByRole('heading', { name: 'Select Your School' }).waitFor();

    // No link only points at a place on the same page (the skip link aside).
    const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    expect(hrefs.filter((href) => href.startsWith('#') && href !== '#main')).toEqual([]);
    const footer = page.locator('footer');
    expect(await footer.getByRole('link').count()).toBeGreaterThanOrEqual(9);

    // Contact your school: the help answer until a school is chosen, then an e-mail to its office.
    const contact = page.getByRole('link', { name: 'Contact your school' }).first();
    expect(await contact.getAttribute('href')).toBe('/help#contact');
    await page.getByLabel('School', { exact: true }).selectOption({ label: 'Demo Primary School' });
    await expect.poll(() => contact.getAttribute('href')).toBe(`mailto:${demo.contactEmail}?subject=${encodeURIComponent('School photos: Demo Primary School')}`);

    // The privacy notice.
    await footer.getByRole('link', { name: 'Privacy' }).click();
    await page.waitForURL('**/privacy');
    await page.getByRole('heading', { name: 'Privacy Notice', level: 1 }).waitFor();
    const notice = await page.locator('main').innerText();
    for (const words of ['Botswana Data Protection Act, 2024', 'student code', 'e-mail address', 'photos', 'How long', 'erase', 'Information and Data Protection Commission']) {
      expect(notice).toContain(words);
    }

    // A help answer, opened at its question.
    await footer.getByRole('link', { name: 'Delivery to school' }).click();
    await page.waitForURL('**/help#delivery');
    const delivery = page.getByRole('heading', { name: 'Where are my prints delivered?' });
    await delivery.waitFor();
    // Scrolled to, and below the sticky header rather than under it.
    await expect
      .poll(() => delivery.evaluate((heading) => {
        const header = document.querySelector('.site-header')!.getBoundingClientRect();
        const box = heading.getBoundingClientRect();
        return window.scrollY > 0 && box.top >= header.bottom && box.top < window.innerHeight;
      }))
      .toBe(true);
    await page.getByRole('link', { name: 'How It Works' }).first().waitFor();

    // Support in the phone's menu.
    await page.goto(`${base}/`);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Support' }).click();
    await page.waitForURL('**/help');
    await page.getByRole('heading', { name: 'Help', level: 1 }).waitFor();

    // Every footer link leads to a page of the app that exists.
    for (const href of await footer.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))) {
      await page.goto(`${base}${href}`);
      expect(await page.getByRole('heading', { name: 'Page Not Found' }).count(), href).toBe(0);
    }
    await context.close();
  });
});
