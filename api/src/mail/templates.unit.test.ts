import { describe, expect, it } from 'vitest';
import { accountCreatedEmail, orderConfirmationEmail, passwordResetEmail, paymentExpiredEmail, type OrderConfirmationInput } from './templates';
import { escapeHtml, safeHref } from './html';

const hostile = '<img src=x onerror=alert(1)> & "Kgosi"';

describe('passwordResetEmail', () => {
  const mail = passwordResetEmail({ firstName: hostile, resetUrl: 'https://photos.example.bw/reset?token=t0k&x=1', businessName: 'Lesedi & Co' });

  it('names the business, carries the link and says it is valid for 1 hour', () => {
    expect(mail.subject).toBe('Reset your Lesedi & Co password');
    expect(mail.text).toContain('https://photos.example.bw/reset?token=t0k&x=1');
    expect(mail.text).toContain('valid for 1 hour');
    expect(mail.html).toContain('href="https://photos.example.bw/reset?token=t0k&#38;x=1"');
    expect(mail.html).toContain('valid for 1 hour');
  });

  it('escapes what it echoes into HTML', () => {
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&#60;img src=x onerror=alert(1)&#62; &#38; &#34;Kgosi&#34;');
    expect(mail.html).toContain('Lesedi &#38; Co');
    expect(mail.text).toContain(`Hello ${hostile},`);
  });
});

describe('accountCreatedEmail', () => {
  const mail = accountCreatedEmail({ firstName: 'Naledi', setPasswordUrl: 'https://photos.example.bw/reset?token=abc', businessName: 'Lesedi School Photos' });

  it('explains the account was made at checkout and links to set a password', () => {
    expect(mail.subject).toContain('set your password');
    expect(mail.text).toMatch(/account was created for you when you placed your order/);
    expect(mail.text).toContain('https://photos.example.bw/reset?token=abc');
    expect(mail.html).toContain('>Set your password</a>');
    expect(mail.text).toContain('Forgot password');
  });
});

describe('orderConfirmationEmail', () => {
  const input: OrderConfirmationInput = {
    businessName: 'Lesedi School Photos',
    order: {
      id: 'ORD-1001',
      customerName: 'Naledi Kgosi',
      studentName: 'Tumelo <Kgosi>',
      schoolName: 'Maru-a-Pula',
      albumName: 'Class of 2025',
      totalAmount: '125.5',
      items: [
        { productName: '8x10 Print', photoName: 'Photo 1', quantity: 2, totalPrice: '100.00' },
        { productName: 'Digital Copy', photoName: hostile, quantity: 1, totalPrice: '25.50' },
      ],
      packages: [],
      subtotal: '125.50',
      siblingDiscount: '0.00',
      couponCode: null,
      couponDiscount: '0.00',
    },
    downloads: [{ photoName: 'Photo 2', url: 'https://photos.example.bw/api/downloads/abc?sig=1&exp=2' }],
    ordersUrl: 'https://photos.example.bw/customer/orders',
  };
  const mail = orderConfirmationEmail(input);

  it('lists items, the total as P with two decimals, the school delivery note and downloads', () => {
    expect(mail.subject).toBe('Your Lesedi School Photos order ORD-1001 is confirmed');
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('P125.50');
      expect(body).toContain('P100.00');
      expect(body).toContain('P25.50');
      expect(body).toContain('8x10 Print');
      expect(body).toContain('Photo 1');
      expect(body).toContain('Maru-a-Pula');
      expect(body).toContain('Class of 2025');
      expect(body).toMatch(/Prints are delivered to Maru-a-Pula: there is no home delivery/);
      expect(body).toContain('valid for 30 days');
      expect(body).toContain('My Orders');
    }
    expect(mail.text).toContain('- 2 x 8x10 Print, Photo 1: P100.00');
    expect(mail.text).toContain('Total: P125.50');
    expect(mail.text).toContain('Your digital copies:');
    expect(mail.text).toContain('- Photo 2: https://photos.example.bw/api/downloads/abc?sig=1&exp=2');
    expect(mail.html).toContain('<a href="https://photos.example.bw/api/downloads/abc?sig=1&#38;exp=2">Photo 2</a>');
    expect(mail.html).toContain('href="https://photos.example.bw/customer/orders"');
  });

  it('escapes names in HTML', () => {
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<Kgosi>');
    expect(mail.html).toContain('Tumelo &#60;Kgosi&#62;');
  });

  it('leaves out the downloads section and an empty album when there are none', () => {
    const printsOnly = orderConfirmationEmail({ ...input, order: { ...input.order, albumName: '' }, downloads: [] });
    expect(printsOnly.text).not.toContain('digital copies');
    expect(printsOnly.html).not.toContain('digital copies');
    expect(printsOnly.text).not.toContain('Album:');
  });

  it('refuses a non-http link instead of rendering it', () => {
    expect(() => orderConfirmationEmail({ ...input, downloads: [{ photoName: 'x', url: 'javascript:alert(1)' }] })).toThrow(TypeError);
  });

  it('shows no subtotal or discount lines for an order without discounts', () => {
    for (const body of [mail.text, mail.html]) {
      expect(body).not.toContain('Subtotal');
      expect(body).not.toContain('Sibling discount');
      expect(body).not.toContain('Coupon');
    }
  });

  describe('with a package, a sibling discount and a coupon', () => {
    // 1 x Glossy 60.00 + Family Pack 150.00 (contents worth 195.00) = 210.00; sibling 12.00; coupon 19.80.
    const packaged = orderConfirmationEmail({
      ...input,
      order: {
        ...input.order,
        studentName: 'Neo Kgosi, Tumelo Kgosi',
        totalAmount: '178.20',
        items: [{ productName: 'Glossy Print', photoName: 'Photo 7', quantity: 2, totalPrice: '60.00' }],
        packages: [
          {
            name: 'Family <Pack>',
            quantity: 1,
            totalPrice: '150.00',
            itemsValue: '195.00',
            child: 'Tumelo Kgosi',
            contents: [
              { productName: '15x20 Print', photoName: 'Photo 423', quantity: 1 },
              { productName: '10x15 Print', photoName: 'Photo 424', quantity: 2 },
              { productName: 'Digital Copy', photoName: 'Photo 423', quantity: 1 },
            ],
          },
        ],
        subtotal: '210.00',
        siblingDiscount: '12.00',
        couponCode: 'SPRING10',
        couponDiscount: '19.80',
      },
    });

    it('lists the package with its child, price and contents, and what it saved', () => {
      expect(packaged.text).toContain(
        ['- 1 x Family <Pack> for Tumelo Kgosi: P150.00', '    1 x 15x20 Print, Photo 423', '    2 x 10x15 Print, Photo 424', '    1 x Digital Copy, Photo 423', '    You saved P45.00 against single prints'].join('\n'),
      );
      expect(packaged.html).toContain('Family &#60;Pack&#62; for Tumelo Kgosi');
      expect(packaged.html).toContain('2 x 10x15 Print, Photo 424');
      expect(packaged.html).toContain('You saved P45.00 against single prints');
      expect(packaged.html).not.toContain('<Pack>');
    });

    it('shows the subtotal, each discount and the total, in the order they apply', () => {
      expect(packaged.text).toContain(['Subtotal: P210.00', 'Sibling discount: -P12.00', 'Coupon SPRING10: -P19.80', 'Total: P178.20'].join('\n'));
      const html = packaged.html;
      const at = (needle: string) => html.indexOf(needle);
      expect(at('P210.00')).toBeGreaterThan(at('Family &#60;Pack&#62;'));
      expect(at('Subtotal')).toBeLessThan(at('Sibling discount'));
      expect(at('-P12.00')).toBeLessThan(at('Coupon SPRING10'));
      expect(at('-P19.80')).toBeLessThan(at('P178.20'));
      expect(at('Subtotal')).toBeGreaterThan(-1);
    });

    it('names a coupon that took nothing off as P0.00 and leaves out a sibling discount of zero', () => {
      const couponOnly = orderConfirmationEmail({ ...input, order: { ...input.order, couponCode: 'FREE-FRAME', couponDiscount: '0.00' } });
      expect(couponOnly.text).toContain('Subtotal: P125.50\nCoupon FREE-FRAME: -P0.00\nTotal: P125.50');
      expect(couponOnly.text).not.toContain('Sibling discount');
    });
  });
});

describe('html helpers', () => {
  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
    expect(safeHref('http://localhost:8080/a?b=1&c=2')).toBe('http://localhost:8080/a?b=1&#38;c=2');
  });
});

describe('paymentExpiredEmail', () => {
  const mail = paymentExpiredEmail({ businessName: 'Lesedi & Co', customerName: hostile, orderId: 'ABCDEFGHJKMNP', days: 7, payAgainUrl: 'https://photos.example.bw/order-confirmation/ABCDEFGHJKMNP' });

  it('says the payment expired after the days allowed and links to pay again', () => {
    expect(mail.subject).toBe('Your payment for order ABCDEFGHJKMNP has expired');
    expect(mail.text).toContain('within 7 days');
    expect(mail.text).toContain('Pay again: https://photos.example.bw/order-confirmation/ABCDEFGHJKMNP');
    expect(mail.html).toContain('href="https://photos.example.bw/order-confirmation/ABCDEFGHJKMNP"');
  });

  it('escapes the name in HTML', () => {
    expect(mail.html).toContain(escapeHtml(hostile));
    expect(mail.html).not.toContain('<img src=x');
  });
});
