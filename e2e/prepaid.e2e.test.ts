/**
 * Ordering before picture day on a phone (docs/packages-and-coupons.md, "Ordering before picture
 * day"): a family opens its child's flyer code while the class has no photos online, sees "Order
 * before picture day" with the school's package (what it holds, its price), puts it in the cart,
 * pays by mobile money in the PayWeb3 sandbox, and the confirmation shows the package as photos to
 * choose after picture day. Staff then upload the child's photos and publish the class (through
 * the API); the same confirmation page offers "Choose your photos", the family fills the package in
 * the package dialog from that child's photos only, saves, and the order holds the chosen photos.
 * Then the message's order link opens on another phone that never saw the shop nor the code
 * (docs/prepaid.md, "Choosing from any device"): its photos load there and the choice is changed.
 */
import { expect, it } from 'vitest';
import type { Order } from '../api/contract/orders';
import type { PriceList } from '../api/contract/price-lists';
import { formatPula, thebeToDecimal } from '../api/contract/money';
import { PREPAID_SCREENS_MSG } from '../api/contract/prepaid-screens';
import { createOrderLinks } from '../api/src/orders/order-links';
import { goToCheckout, toastWith, uniqueEmail } from './support/journey';
import { adminToken, api, createCodesClass, makeJpeg, uploadBatch } from './staff-helpers';
import { PHONE, describeJourney } from './support/journey-suite';

const PACKAGE = 'Picture Day Pack';
/** The server's signing key, so the journey can make the order link its messages carry. */
const JWT_SECRET = 'prepaid-journey-signing-key-0123456789';

describeJourney(
  'order before picture day',
  (env) => {
    it('prepays a package by mobile money before the photos exist, then chooses its photos once the class is published', async () => {
      const base = env.server.url;
      const token = await adminToken(base);
      const { school, album, students } = await createCodesClass(base, token, 'Prepay', 'Grade 1A', ['Kagiso Dube', 'Other Child']);
      const [kagiso, other] = students as [(typeof students)[number], (typeof students)[number]];
      // The studio's price list with a package of a 15x20 print and a digital copy, P20 below their sum.
      const [first] = await api<{ id: number }[]>(base, '/api/price-lists', { token });
      const list = await api<PriceList>(base, `/api/price-lists/${first!.id}`, { token });
      const priceOf = (name: string) => Math.round(Number(list.items.find((item) => item.productType === name)!.price) * 100);
      const packagePrice = priceOf('15x20 Print') + priceOf('Digital Copy') - 2000;
      await api(base, `/api/price-lists/${list.id}`, {
        method: 'PUT',
        token,
        body: {
          name: list.name,
          description: list.description,
          products: list.items.map((item) => ({ name: item.productType, description: item.description, price: item.price, kind: item.kind, size: item.size ?? '' })),
          packages: [{ name: PACKAGE, price: thebeToDecimal(packagePrice), items: [{ productName: '15x20 Print', quantity: 1 }, { productName: 'Digital Copy', quantity: 1 }], maxPoses: 2 }],
        },
      });
      await api(base, `/api/schools/${school.id}`, { method: 'PATCH', token, body: { priceListId: list.id } });

      const context = await env.browser.newContext(PHONE);
      const page = await context.newPage();

      // The flyer's code before picture day: the packages instead of an empty gallery.
      await page.goto(`${base}/code/${kagiso.code}`);
      await page.waitForURL(`**/children?student=${kagiso.id}`);
      await page.getByRole('heading', { name: PREPAID_SCREENS_MSG.offerTitle }).waitFor();
      await page.getByText(PREPAID_SCREENS_MSG.offerIntro('Kagiso Dube')).waitFor();
      const card = page.getByRole('listitem', { name: PACKAGE });
      expect(await card.textContent()).toContain(formatPula(packagePrice, 'thebe'));
      expect(await card.textContent()).toContain('Includes: 1 x 15x20 Print, 1 x Digital Copy');
      await card.getByRole('button', { name: `${PREPAID_SCREENS_MSG.offerButton}: ${PACKAGE}` }).click();
      await toastWith(page, PREPAID_SCREENS_MSG.offerAdded(PACKAGE, 'Kagiso Dube')).waitFor();
      await card.getByRole('button', { name: `${PREPAID_SCREENS_MSG.inCart}: ${PACKAGE}` }).waitFor();
      // The cart keeps it like any other line: the same after a reload.
      await page.reload();
      await page.getByText(PREPAID_SCREENS_MSG.cartLine('Kagiso Dube')).waitFor();

      // Checkout as usual, by mobile money in the sandbox.
      await goToCheckout(page);
      await page.getByText(PREPAID_SCREENS_MSG.cartLine('Kagiso Dube')).waitFor();
      expect(await page.getByLabel('Student name').inputValue()).toBe('Kagiso Dube');
      await page.getByLabel('Your name').fill('Mpho Dube');
      await page.getByLabel('Email').fill(uniqueEmail('prepaid'));
      await page.getByRole('group', { name: 'How would you like to pay?' }).getByRole('radio', { name: 'Mobile money (e-wallet)' }).check();
      await page.getByRole('button', { name: 'Place Order and Pay' }).click();
      // The sandbox's e-wallet page (the checkout has a mobile number field of its own).
      await page.waitForURL(/\/payweb3\//, { timeout: 30_000 });
      await page.getByText('Mobile money payment').first().waitFor();
      await page.getByLabel('Mobile number').fill('71 234 567');
      await page.getByRole('button', { name: 'Approve on the phone' }).click();
      await page.waitForURL(/\/order-confirmation\/[A-Z0-9]+/, { timeout: 30_000 });
      await page.getByRole('heading', { name: 'Payment Successful' }).waitFor({ timeout: 30_000 });
      const orderId = /\/order-confirmation\/([A-Z0-9]+)/.exec(page.url())?.[1] ?? '';
      const line = page.getByRole('listitem', { name: PACKAGE });
      await line.getByText(PREPAID_SCREENS_MSG.photosLater).waitFor();
      await line.getByText(PREPAID_SCREENS_MSG.waitingForPhotos).waitFor();
      const readOrder = async () => (await (await page.context().request.get(`${base}/api/orders/${orderId}`)).json()) as Order;
      const placed = await readOrder();
      expect(placed).toMatchObject({ paymentStatus: 'completed', paymentMethod: 'ewallet', totalAmount: thebeToDecimal(packagePrice) });
      expect(placed.packages).toEqual([expect.objectContaining({ name: PACKAGE, studentId: kagiso.id, prepaid: true, photosChosen: false, posesChosenBy: null })]);
      expect(placed.items).toEqual([]);

      // Picture day: staff upload the class, give Kagiso two photos (and the other child one), and publish.
      const uploaded = await uploadBatch(base, token, album.id, [
        { name: 'DSC_0301.JPG', buffer: await makeJpeg(301) },
        { name: 'DSC_0302.JPG', buffer: await makeJpeg(302) },
        { name: 'DSC_0303.JPG', buffer: await makeJpeg(303) },
      ]);
      expect(uploaded.status).toBe(201);
      const [p1, p2, p3] = uploaded.body.photos.map((photo) => photo.id) as [number, number, number];
      await api(base, '/api/photos/student', { method: 'PUT', token, body: { photoIds: [p1, p2], studentId: kagiso.id } });
      await api(base, '/api/photos/student', { method: 'PUT', token, body: { photoIds: [p3], studentId: other.id } });
      await api(base, `/api/albums/${album.id}/publish`, { method: 'POST', token });

      // Back on the confirmation: choose the photos, one per item, from Kagiso's photos only.
      await page.reload();
      await line.getByText(PREPAID_SCREENS_MSG.photosLater).waitFor();
      await line.getByRole('button', { name: `${PREPAID_SCREENS_MSG.chooseAction}: ${PACKAGE}` }).click();
      const dialog = page.getByRole('dialog', { name: `Fill ${PACKAGE}` });
      await dialog.waitFor();
      const picks = dialog.getByRole('radio');
      await picks.first().waitFor();
      expect(await picks.evaluateAll((radios) => radios.map((radio) => Number(radio.getAttribute('data-photo-id'))))).toEqual([p1, p2]);
      await picks.nth(0).click();
      await picks.nth(1).click();
      await dialog.getByRole('button', { name: PREPAID_SCREENS_MSG.saveChoice }).click();
      await toastWith(page, PREPAID_SCREENS_MSG.saved).waitFor();
      await dialog.waitFor({ state: 'hidden' });

      // The order holds the chosen photos: the page and the server say so.
      await line.getByText(PREPAID_SCREENS_MSG.chosenByFamily).waitFor();
      await line.getByRole('list', { name: `Contains: ${PACKAGE}` }).waitFor();
      const chosen = await readOrder();
      expect(chosen.packages).toEqual([expect.objectContaining({ prepaid: true, photosChosen: true, posesChosenBy: 'family' })]);
      const packageLine = chosen.packages[0]!.id;
      expect(chosen.items.filter((item) => item.packageLineId === packageLine).map((item) => [item.productName, item.photoId])).toEqual([
        ['15x20 Print', p1],
        ['Digital Copy', p2],
      ]);
      // Still the family's to change until the closing date.
      await line.getByRole('button', { name: `${PREPAID_SCREENS_MSG.changeAction}: ${PACKAGE}` }).waitFor();
      await context.close();

      // The "photos are online" message's order link, opened on another phone that never saw the
      // shop nor the code: the photos come with the order, load there, and the choice is changed.
      const elsewhere = await env.browser.newContext(PHONE);
      const phone = await elsewhere.newPage();
      await phone.goto(`${base}${createOrderLinks(JWT_SECRET).path(orderId)}`);
      await phone.waitForURL(`**/order-confirmation/${orderId}`);
      const there = phone.getByRole('listitem', { name: PACKAGE });
      await there.getByText(PREPAID_SCREENS_MSG.chosenByFamily).waitFor();
      await there.getByRole('button', { name: `${PREPAID_SCREENS_MSG.changeAction}: ${PACKAGE}` }).click();
      const again = phone.getByRole('dialog', { name: `Fill ${PACKAGE}` });
      await again.waitFor();
      const options = again.getByRole('radio');
      await options.first().waitFor();
      expect(await options.evaluateAll((radios) => radios.map((radio) => Number(radio.getAttribute('data-photo-id'))))).toEqual([p1, p2]);
      // Their thumbnails load in this browser, which has no gallery access to Kagiso.
      await phone.waitForFunction(() => {
        const images = [...document.querySelectorAll<HTMLImageElement>('[role="dialog"] .package-pick img')];
        return images.length === 2 && images.every((image) => image.complete && image.naturalWidth > 0);
      });
      expect((await phone.context().request.get(`${base}/api/images/${p1}/thumbnail`)).status()).toBe(404);
      await again.getByLabel('Use one photo for all').check();
      await options.nth(1).click();
      await again.getByRole('button', { name: PREPAID_SCREENS_MSG.saveChoice }).click();
      await toastWith(phone, PREPAID_SCREENS_MSG.saved).waitFor();
      await again.waitFor({ state: 'hidden' });
      const changed = (await (await phone.context().request.get(`${base}/api/orders/${orderId}`)).json()) as Order;
      expect(changed.items.filter((item) => item.packageLineId === packageLine).map((item) => [item.productName, item.photoId])).toEqual([
        ['15x20 Print', p2],
        ['Digital Copy', p2],
      ]);
      await elsewhere.close();
    });
  },
  { serverEnv: { PAYMENT_METHODS: 'card,ewallet', JWT_SECRET } },
);
