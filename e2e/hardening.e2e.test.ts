/**
 * The screens the hardening work fixed: staff see every image of a school they view, the gallery
 * waits for a school's prices (and offers a retry) instead of showing the built-in ones, an expired
 * staff session returns to the staff login, editing a protected class keeps its password, the
 * checkout says when it created an account, and the error texts of restore, price lists and reset.
 */
import fs from 'node:fs';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HARDENING_MSG, MSG } from '../api/contract/messages';
import { addFirstPhoto, fillCheckout, goToCheckout, openClass, toastWith, uniqueEmail, unlockSchool } from './support/journey';
import { ADMIN, adminToken, api, makeJpeg, signIn } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

const SCHOOL = 'Demo Primary School';

const form = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });
const hidden = (html: string) => Object.fromEntries([...html.matchAll(/<input type="hidden" name="([A-Z_]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]));

/** What a parent's browser does with a payment request on the sandbox: its page, Pay, the return. */
async function payOnSandbox(baseUrl: string, request: { processUrl: string; payRequestId: string; checksum: string }): Promise<void> {
  const page = hidden(await (await form(request.processUrl, { PAY_REQUEST_ID: request.payRequestId, CHECKSUM: request.checksum })).text());
  const done = await (await form(`${baseUrl}/payweb3/pay.trans`, { PAY_REQUEST_ID: page.PAY_REQUEST_ID!, CHECKSUM: page.CHECKSUM!, CARD_NUMBER: '4000000000000002', EXPIRY: '12/35', CVV: '123', ACTION: 'pay' })).text();
  const action = /<form method="post" action="([^"]+)"/.exec(done)?.[1]?.replace(/&amp;/g, '&');
  if (!action) throw new Error('the sandbox did not answer with a return form');
  await form(action, hidden(done));
}

/** Every image matching `selector` has loaded real pixels. */
async function allImagesLoaded(page: Page, selector: string): Promise<number> {
  await page.waitForFunction(
    (css) => {
      const images = Array.from(document.querySelectorAll<HTMLImageElement>(css));
      return images.length > 0 && images.every((img) => img.complete && img.naturalWidth > 0);
    },
    selector,
    { timeout: 30_000 },
  );
  return page.locator(selector).count();
}

describeJourney('hardening: the screens', (env) => {
  it('staff viewing a school see every thumbnail and preview, protected classes included', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await signIn(page, env.server.url);
    await page.getByRole('tab', { name: 'Schools' }).click();
    await page.getByRole('link', { name: `View ${SCHOOL}` }).click();
    await page.getByRole('heading', { name: SCHOOL }).waitFor();
    // Class 10C has a class password; staff go straight in.
    await page.getByRole('button', { name: /^Class 10C\b/ }).click();
    await page.getByRole('button', { name: 'Back to Classes' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'Class Password Required' }).count()).toBe(0);
    // Staff images load as they scroll into view, as a parent's do.
    await page.locator('.photo-grid img').last().scrollIntoViewIfNeeded();
    expect(await allImagesLoaded(page, '.photo-grid img')).toBe(10);
    await page.getByRole('button', { name: /^Choose products for/ }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Select Products for Photo' });
    await allImagesLoaded(page, '.preview-frame img');
    await dialog.getByRole('checkbox', { name: /^Digital Copy/ }).waitFor();
    await context.close();
  });

  it('staff viewing a school that shares photos by student codes see its classes and every photo', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const schools = await api<{ id: number; name: string }[]>(base, '/api/schools', { token });
    const sunrise = schools.find((school) => school.name === 'Sunrise Academy')!;
    await api(base, `/api/schools/${sunrise.id}`, { method: 'PATCH', token, body: { accessMode: 'student_codes' } });
    const context = await env.browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, base);
      await page.getByRole('tab', { name: 'Schools' }).click();
      await page.getByRole('link', { name: 'View Sunrise Academy' }).click();
      await page.getByRole('heading', { name: 'Sunrise Academy' }).waitFor();
      expect(await page.getByText('Enter the code from your child', { exact: false }).count()).toBe(0);
      await page.getByRole('button', { name: /^Standard 7 Leavers\b/ }).click();
      await page.getByRole('button', { name: 'Back to Classes' }).waitFor();
      await page.locator('.photo-grid img').last().scrollIntoViewIfNeeded();
      expect(await allImagesLoaded(page, '.photo-grid img')).toBe(6);
    } finally {
      await context.close();
      await api(base, `/api/schools/${sunrise.id}`, { method: 'PATCH', token, body: { accessMode: 'school_password' } });
    }
  });

  it('the gallery waits for the school\'s prices and offers a retry when they fail, never the built-in products', async () => {
    // The requests are held and failed in the page: a service worker would answer them itself.
    const context = await env.browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    // The school's price list is slow, then fails once.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    await page.route('**/api/schools/*/price-lists', async (route) => {
      calls += 1;
      if (calls === 1) {
        await held;
        await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'down', code: 'DATABASE_UNAVAILABLE' }) });
      } else {
        await route.continue();
      }
    });
    await unlockSchool(page, env.server.url, SCHOOL, 'demo1234');
    await openClass(page, 'Class 1A');
    await page.getByRole('button', { name: /^Choose products for/ }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Select Products for Photo' });
    await dialog.getByText(HARDENING_MSG.pricesLoading).waitFor();
    expect(await dialog.getByRole('checkbox').count()).toBe(0);

    release();
    await dialog.getByRole('alert').filter({ hasText: HARDENING_MSG.pricesFailed }).waitFor();
    expect(await dialog.getByRole('checkbox').count()).toBe(0);
    expect(await dialog.getByText('Digital Copy').count()).toBe(0);

    await dialog.getByRole('button', { name: HARDENING_MSG.tryAgain }).click();
    await dialog.getByRole('checkbox', { name: /^Digital Copy/ }).waitFor();
    expect(await dialog.getByText('Large Canvas').count()).toBe(0);
    expect(calls).toBe(2);
    await context.close();
  });

  it('an expired staff session goes back to the staff login with a message', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await signIn(page, env.server.url);
    const user = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}') as { id: number });
    const secret = fs.readFileSync(path.join(env.server.dataDir, 'jwt-secret'), 'utf8').trim();
    const expired = jwt.sign({ t: Date.now() - 13 * 3600_000 }, secret, { algorithm: 'HS256', subject: String(user.id), audience: 'staff', expiresIn: -60 });
    await page.evaluate((token) => localStorage.setItem('token', token), expired);

    await page.goto(`${env.server.url}/order-management`);
    await page.getByRole('heading', { name: 'Photographer Login' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/photographer-dashboard');
    await page.getByRole('alert').filter({ hasText: MSG.sessionExpired }).waitFor();
    await toastWith(page, HARDENING_MSG.sessionExpiredTitle).waitFor();
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([null, null]);
    expect(await page.getByText('could not be loaded').count()).toBe(0);

    // Signing in again works from here.
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { name: 'Photographer Dashboard' }).waitFor();
    await context.close();
  });

  it('editing a protected class keeps its password unless "Remove the password" is chosen', async () => {
    const token = await adminToken(env.server.url);
    const schools = await api<{ id: number; name: string; albums: { id: number; name: string; hasPassword: boolean }[] }[]>(env.server.url, '/api/schools', { token });
    const school = schools.find((candidate) => candidate.name === SCHOOL)!;
    const album = await api<{ id: number; name: string }>(env.server.url, '/api/albums', { method: 'POST', token, body: { name: 'Grade 7 Private', schoolId: school.id, password: 'private7' } });
    const hasPassword = async (name: string) =>
      (await api<{ id: number; name: string; hasPassword: boolean }[]>(env.server.url, `/api/schools/${school.id}/albums`, { token })).find((a) => a.id === album.id && a.name === name)?.hasPassword;

    const context = await env.browser.newContext();
    const page = await context.newPage();
    await signIn(page, env.server.url);
    await page.goto(`${env.server.url}/photographer/schools/${school.id}/classes`);
    await page.getByRole('button', { name: 'Edit Grade 7 Private' }).click();
    let dialog = page.getByRole('dialog', { name: 'Edit class' });
    await dialog.getByText(HARDENING_MSG.keepClassPasswordHint).waitFor();
    await dialog.getByLabel('Class name').fill('Grade 7 Private B');
    await dialog.getByRole('button', { name: 'Save Class' }).click();
    await toastWith(page, 'Grade 7 Private B is password protected.').waitFor();
    expect(await hasPassword('Grade 7 Private B')).toBe(true);

    await page.getByRole('button', { name: 'Edit Grade 7 Private B' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit class' });
    await dialog.getByRole('checkbox', { name: HARDENING_MSG.removeClassPassword }).click();
    expect(await dialog.getByLabel('Class password (optional)').isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Save Class' }).click();
    await toastWith(page, 'Grade 7 Private B has no password.').waitFor();
    expect(await hasPassword('Grade 7 Private B')).toBe(false);
    await context.close();
  });

  it('the checkout says when it created an account for the parent', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await unlockSchool(page, env.server.url, SCHOOL, 'demo1234');
    await openClass(page, 'Class 1A');
    await addFirstPhoto(page, [{ name: 'Digital Copy' }]);
    await goToCheckout(page);
    const email = uniqueEmail('created');
    await fillCheckout(page, { name: 'Lorato Parent', email, student: 'Tumelo' });
    // Hold the payment step, so the page can be read before it leaves for the gateway.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/payment/initiate', async (route) => {
      await held;
      await route.abort();
    });
    await page.getByRole('button', { name: 'Place Order and Pay' }).click();
    await page.getByRole('main').getByRole('status').filter({ hasText: HARDENING_MSG.accountCreated(email) }).waitFor();
    await toastWith(page, HARDENING_MSG.accountCreatedTitle).waitFor();
    release();
    await page.getByRole('button', { name: 'Try Payment Again' }).waitFor();
    await page.getByText(HARDENING_MSG.accountCreated(email)).waitFor();
    await context.close();
  });

  it('restore, price list and reset failures use the spec\'s texts', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await signIn(page, env.server.url);

    // A restore answered with an HTTP error.
    await page.route('**/api/photos/restore', (route) => route.fulfill({ status: 413, contentType: 'application/json', body: JSON.stringify({ message: 'The upload is too large', code: 'TOO_LARGE' }) }));
    // A restore names its class (docs/images.md): one class with a missing photo, so it is the one chosen.
    const missing = { id: 1, filename: 'a.jpg', originalName: 'IMG_9999.JPG', albumId: 1, albumName: 'Class 1A', schoolId: 1, schoolName: 'School', createdAt: '2026-11-26T10:00:00.000Z' };
    await page.route('**/api/photos/missing', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ missingPhotos: [missing], totalInDatabase: 1 }) }));
    await page.goto(`${env.server.url}/photographer/restore`);
    await page.getByRole('tab', { name: 'Restore Photos' }).click();
    await page.getByLabel('Choose photos to upload').setInputFiles([{ name: 'IMG_9999.JPG', mimeType: 'image/jpeg', buffer: await makeJpeg(3) }]);
    await page.getByRole('button', { name: 'Restore Photos' }).click();
    await toastWith(page, 'Restoration Failed').waitFor();
    await toastWith(page, 'Upload failed: Payload Too Large').waitFor();

    // A price list the server refuses: the spec's text, then the reason.
    await page.goto(`${env.server.url}/photographer-dashboard?tab=price-lists`);
    await page.getByRole('button', { name: 'Create Price List' }).click();
    await page.getByLabel('Price list name').fill('Too dear');
    const row = page.getByRole('group', { name: 'Product 1' });
    await row.getByLabel('Product name').fill('Gold Frame');
    await row.getByLabel('Price (P)').fill('2000000');
    await page.getByRole('button', { name: 'Create Price List', exact: true }).last().click();
    await toastWith(page, 'Failed to create price list: Price of Gold Frame must be an amount in Pula with at most two decimals').waitFor();

    // A reset link the server does not know is "invalid or expired"; a network failure is not.
    const parent = await context.newPage();
    await parent.goto(`${env.server.url}/reset-password?token=not-a-real-link-token`);
    const submit = async () => {
      await parent.getByLabel('New password', { exact: true }).fill('brand-new-1');
      await parent.getByLabel('Confirm password', { exact: true }).fill('brand-new-1');
      await parent.getByRole('button', { name: 'Reset Password' }).click();
    };
    await submit();
    await parent.getByRole('alert').filter({ hasText: MSG.resetLinkInvalid }).waitFor();
    await parent.route('**/api/auth/customer/reset-password', (route) => route.abort('internetdisconnected'));
    await submit();
    await parent.getByRole('alert').filter({ hasText: HARDENING_MSG.resetNetwork }).waitFor();
    expect(await parent.getByText(MSG.resetLinkInvalid).count()).toBe(0);
    await context.close();
  });

  it('an order paid twice is flagged for staff in its row and its details', async () => {
    // Two payment requests for one order: one kept open in a tab for half an hour, one fresh.
    const schools = await api<{ id: number; slug: string; name: string }[]>(env.server.url, '/api/schools');
    const school = schools.find((candidate) => candidate.name === SCHOOL)!;
    const verify = await fetch(`${env.server.url}/api/schools/${school.slug}/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ password: 'demo1234' }) });
    const cookie = (verify.headers.get('set-cookie') ?? '').split(';')[0]!;
    const token = await adminToken(env.server.url);
    const albums = await api<{ id: number; name: string }[]>(env.server.url, `/api/schools/${school.id}/albums`, { token });
    const album = albums.find((candidate) => candidate.name === 'Class 1A')!;
    const [photo] = await api<{ id: number }[]>(env.server.url, `/api/albums/${album.id}/photos`, { token });
    const products = await api<{ items: { id: number; productType: string; price: string }[] }[]>(env.server.url, `/api/schools/${school.id}/price-lists`);
    const digital = products[0]!.items.find((item) => item.productType === 'Digital Copy')!;
    const { order } = await api<{ order: { id: string } }>(env.server.url, '/api/orders', {
      method: 'POST',
      cookie,
      body: {
        schoolId: school.id,
        customerName: 'Boitumelo Twice',
        customerEmail: uniqueEmail('twice'),
        studentName: 'Kitso',
        totalAmount: digital.price,
        items: [{ photoId: photo!.id, albumId: album.id, productType: String(digital.id), quantity: 1, unitPrice: digital.price, totalPrice: digital.price }],
      },
    });
    type Started = { processUrl: string; payRequestId: string; checksum: string };
    const old = await api<Started>(env.server.url, '/api/payment/initiate', { method: 'POST', body: { orderId: order.id } });
    const db = new Database(path.join(env.server.dataDir, 'app.sqlite'));
    try {
      db.prepare('update payments set created_at = ? where pay_request_id = ?').run(Date.now() - 40 * 60_000, old.payRequestId);
    } finally {
      db.close();
    }
    const fresh = await api<Started>(env.server.url, '/api/payment/initiate', { method: 'POST', body: { orderId: order.id } });
    expect(fresh.payRequestId).not.toBe(old.payRequestId);
    await payOnSandbox(env.server.url, fresh);
    await payOnSandbox(env.server.url, old);
    await expect.poll(async () => (await api<{ duplicatePayments: number }>(env.server.url, `/api/orders/${order.id}`, { token })).duplicatePayments).toBe(1);

    const context = await env.browser.newContext();
    const page = await context.newPage();
    await signIn(page, env.server.url);
    await page.goto(`${env.server.url}/order-management`);
    await page.getByLabel('Search').fill(order.id.toLowerCase());
    const row = page.getByRole('listitem', { name: `Order ${order.id}` });
    await row.getByText(HARDENING_MSG.paidTwice(1)).waitFor();
    await row.getByRole('button', { name: 'View Details' }).click();
    const details = page.getByRole('dialog', { name: `Order #${order.id}` });
    await details.getByRole('alert').filter({ hasText: HARDENING_MSG.paidTwiceHelp }).waitFor();
    await context.close();
  });
});
