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
