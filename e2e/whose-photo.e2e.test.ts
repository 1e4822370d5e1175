/**
 * A family with only the school password never learns whose photo it is (docs/access.md, "Whose
 * photo it is"): Class 1A of the demo school gets a class list, its first photo is Boitumelo's and its
 * second Onalenna's. The family orders a print of the first and a Keepsake of the second; its cart,
 * checkout, confirmation page, confirmation e-mail and My Orders name neither child and take no
 * sibling discount (two different children would have been told by it), while staff see both names.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Student } from '../api/contract/students';
import type { Order } from '../api/contract/orders';
import { PACKAGE_MSG } from '../api/contract/messages';
import { parseEml } from '../api/src/mail/eml.test-helpers';
import { resetLinkIn } from '../api/test/mail-catcher';
import { APPROVED_CARD, addFirstPhoto, fillCheckout, goToCheckout, openClass, payWithCard, toastWith, uniqueEmail, unlockSchool } from './support/journey';
import { adminToken, api } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

// Not "Lesedi": the demo's business name is Lesedi School Photos.
const HIDDEN = ['Boitumelo', 'Seretse', 'Onalenna', 'Kgari'];

/** The page's visible text names none of the children. */
async function namesNoChild(page: Page): Promise<void> {
  const text = await page.locator('body').innerText();
  for (const name of HIDDEN) expect(text, `the page names ${name}`).not.toContain(name);
}

describeJourney(
  'whose photo it is',
  (env) => {
    it("a password family's cart, checkout and My Orders name no child", async () => {
      const base = env.server.url;
      const token = await adminToken(base);
      const schools = await api<{ id: number; slug: string; albums: { id: number; name: string }[] }[]>(base, '/api/schools', { token });
      const demo = schools.find((school) => school.slug === 'demo-primary')!;
      const classA = demo.albums.find((album) => album.name === 'Class 1A')!;
      const [boitumelo, onalenna] = (await api<{ students: Student[] }>(base, `/api/albums/${classA.id}/students`, { method: 'POST', token, body: { students: [{ name: 'Boitumelo Seretse' }, { name: 'Onalenna Kgari' }] } }))
        .students as [Student, Student];

      const context = await env.browser.newContext();
      const page = await context.newPage();
      await unlockSchool(page, base, 'Demo Primary School', 'demo1234');
      await openClass(page, 'Class 1A');
      // The first photo in the family's gallery is Boitumelo's, the second Onalenna's.
      const tiles = page.locator('.photo-tile img.protected');
      await tiles.nth(1).waitFor();
      const photoId = async (index: number) => Number(/\/api\/images\/(\d+)\//.exec((await tiles.nth(index).getAttribute('src')) ?? '')?.[1]);
      const [firstPhoto, secondPhoto] = [await photoId(0), await photoId(1)];
      await api(base, '/api/photos/student', { method: 'PUT', token, body: { photoIds: [firstPhoto], studentId: boitumelo.id } });
      await api(base, '/api/photos/student', { method: 'PUT', token, body: { photoIds: [secondPhoto], studentId: onalenna.id } });
      await page.reload();
      await page.locator('.photo-tile').nth(1).waitFor();
      await namesNoChild(page);

      // A 10x15 print of Boitumelo's photo (P25.00) and a Keepsake of Onalenna's (P45.00).
      await addFirstPhoto(page, [{ name: '10x15 Print' }]);
      await page.getByRole('listitem', { name: 'Keepsake' }).getByRole('button', { name: `${PACKAGE_MSG.choosePhotos}: Keepsake` }).click();
      const dialog = page.getByRole('dialog', { name: PACKAGE_MSG.fillTitle('Keepsake') });
      await dialog.locator(`[role="radio"][data-photo-id="${secondPhoto}"]`).click();
      await namesNoChild(page);
      await dialog.getByRole('button', { name: PACKAGE_MSG.addPackage }).click();
      await toastWith(page, PACKAGE_MSG.added('Keepsake')).waitFor();

      // The cart: the server's total is P70.00, with no sibling discount (it would tell two children apart).
      await goToCheckout(page);
      await page.locator('.total-row', { hasText: 'P70.00' }).waitFor();
      expect(await page.getByText(PACKAGE_MSG.siblingLine(10)).count()).toBe(0);
      await namesNoChild(page);
      // The student name field is the parent's to fill: nothing is prefilled from the class list.
      expect(await page.getByLabel('Student name').inputValue()).toBe('');

      const email = uniqueEmail('whose');
      await fillCheckout(page, { name: 'Naledi Parent', email, student: 'Kabelo' });
      const orderId = await payWithCard(page, APPROVED_CARD);
      await page.getByRole('heading', { name: 'Payment Successful' }).waitFor({ timeout: 30_000 });
      await page.getByRole('listitem', { name: 'Keepsake' }).waitFor();
      await page.getByText('Kabelo').first().waitFor();
      await namesNoChild(page);

      // The confirmation e-mail names no child either; the student is the name the parent typed.
      const [confirmation] = await env.mail.waitForMessages(1, { to: email, match: (message) => message.subject.includes('is confirmed'), timeout: 20_000 });
      const { text, html } = parseEml(confirmation!.raw);
      for (const name of HIDDEN) {
        expect(text).not.toContain(name);
        expect(html).not.toContain(name);
      }
      expect(text).toContain('Student: Kabelo');

      // My Orders, through the set-password link of the account the checkout made.
      const link = resetLinkIn((await env.mail.waitFor(email, 0, 20_000)).text).href;
      await page.goto(link.replace(/^https?:\/\/[^/]+/, base));
      await page.getByLabel('New password', { exact: true }).fill('secret123');
      await page.getByLabel('Confirm password', { exact: true }).fill('secret123');
      await page.getByRole('button', { name: 'Set Password' }).click();
      await page.waitForURL('**/customer/orders');
      await page.getByRole('heading', { name: `Order #${orderId}` }).waitFor();
      await page.getByRole('listitem', { name: 'Keepsake' }).waitFor();
      await page.getByText('Kabelo').first().waitFor();
      await namesNoChild(page);

      // Staff keep every child's name: the school hands each print to the right child.
      const staffView = await api<Order>(base, `/api/orders/${orderId}`, { token });
      expect(staffView.items.find((item) => item.photoId === firstPhoto)?.studentName).toBe('Boitumelo Seretse');
      expect(staffView.packages.map((pkg) => pkg.studentName)).toEqual(['Onalenna Kgari']);
      await context.close();
    });
  },
  { mail: true },
);
