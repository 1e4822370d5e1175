import { describe, expect, it } from 'vitest';
import { smsSegments } from '../../contract/sms-text';
import { abandonedCartSms, closingDateShort, closingReminderSms, photosOnlineSms, unpaidOrderSms } from './season-sms';

/** A production address, and short links at their longest (a 12-character token). */
const PUBLIC_URL = 'https://shop.studio.co.bw';
const LINK = `${PUBLIC_URL}/s/AbCdEfGh1234`;
const STOP = `${PUBLIC_URL}/s/ZyXwVuTs9876`;
/** A long one: the names give way. */
const LONG_URL = 'https://photos.my-studio-name.co.bw';
const LONG_LINK = `${LONG_URL}/s/AbCdEfGh1234`;
const LONG_STOP = `${LONG_URL}/s/ZyXwVuTs9876`;
const LONG_SCHOOL = 'Ṱhabo Kgosi Sechele Memorial Community Junior Secondary School of Excellence and the Arts, Francistown Campus';
const LONG_CHILD = 'Ṱhabo-Kgomotso Oratile Gaositwe Mmolawa-Setlhare and Lesedi Naledi Mmolawa-Setlhare';

const oneSegment = (text: string) => {
  const s = smsSegments(text);
  expect(s.encoding).toBe('GSM-7');
  expect(s.units).toBeLessThanOrEqual(160);
  expect(s.segments).toBe(1);
};

describe('season SMS', () => {
  it('writes the closing date in few letters', () => {
    expect(closingDateShort('2026-12-11')).toBe('Fri 11 Dec');
  });

  it('says "photos are online" with the child, the school, the link, the closing date and the opt-out', () => {
    const sms = photosOnlineSms({ schoolName: 'Maru-a-Pula', studentName: 'Ṱhabo Moyo', closingDate: '2026-12-11', link: LINK, stopUrl: STOP });
    expect(sms.text).toBe(`Photos of Thabo Moyo (Maru-a-Pula) are online: ${LINK} Order by Fri 11 Dec.\nStop SMS: ${STOP}`);
    expect(sms).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    // The opt-out link is last.
    expect(sms.text.endsWith(STOP)).toBe(true);
  });

  it('writes names outside GSM-7 in their closest letters so the message stays GSM-7', () => {
    const sms = photosOnlineSms({ schoolName: 'Škola “Ōra”', studentName: 'Ṱhabo Ŋwenya', closingDate: null, link: LINK, stopUrl: STOP });
    expect(sms.text).toContain('Photos of Thabo Nwenya (Skola "Ora") are online');
    oneSegment(sms.text);
  });

  it.each([
    ['a usual address', LINK, STOP],
    ['a long address', LONG_LINK, LONG_STOP],
  ])('shortens a long school and child name, never the links, so every message fits one segment (%s)', (_, link, stop) => {
    const messages = [
      photosOnlineSms({ schoolName: LONG_SCHOOL, studentName: LONG_CHILD, closingDate: '2026-12-30', link, stopUrl: stop }),
      photosOnlineSms({ schoolName: LONG_SCHOOL, studentName: null, closingDate: '2026-12-30', link, stopUrl: stop }),
      closingReminderSms({ schoolName: LONG_SCHOOL, studentName: LONG_CHILD, closingDate: '2026-12-30', link, stopUrl: stop }),
      closingReminderSms({ schoolName: LONG_SCHOOL, studentName: null, closingDate: '2026-12-30', link, stopUrl: stop }),
      abandonedCartSms({ schoolName: LONG_SCHOOL, link, stopUrl: stop }),
      unpaidOrderSms({ orderId: 'A1B2C3D4E5', schoolName: LONG_SCHOOL, totalThebe: 12_345_600, link, stopUrl: stop }),
    ];
    for (const sms of messages) {
      oneSegment(sms.text);
      expect(sms.text).toContain(link);
      expect(sms.text.endsWith(`Stop SMS: ${stop}`)).toBe(true);
      expect(sms.text).not.toContain(LONG_SCHOOL);
      expect(sms.text).not.toContain('?');
    }
    expect(messages[0]?.text).toContain('Order by Wed 30 Dec.');
    expect(messages[2]?.text).toContain('ordering closes Wed 30 Dec.');
    expect(messages[5]?.text).toContain('P123456.00');
  });

  it('names the school, shortened, when the address leaves room', () => {
    const sms = photosOnlineSms({ schoolName: LONG_SCHOOL, studentName: LONG_CHILD, closingDate: '2026-12-30', link: LINK, stopUrl: STOP });
    expect(sms.text).toMatch(/^Photos of Thabo-K[^(]*\. \(Thabo K[^)]*\.\) are online: /);
    oneSegment(sms.text);
  });

  it('keeps short names whole', () => {
    const sms = closingReminderSms({ schoolName: 'Thornhill', studentName: 'Kim and Lee', closingDate: '2026-12-11', link: LINK, stopUrl: STOP });
    expect(sms.text).toBe(`Photos of Kim and Lee (Thornhill): ordering closes Fri 11 Dec. ${LINK}\nStop SMS: ${STOP}`);
    const cart = abandonedCartSms({ schoolName: 'Thornhill', link: LINK, stopUrl: STOP });
    expect(cart.text).toBe(`Your photos from Thornhill are still in your cart: ${LINK}\nStop SMS: ${STOP}`);
    const unpaid = unpaidOrderSms({ orderId: 'ORD123', schoolName: 'Thornhill', totalThebe: 15000, link: LINK, stopUrl: STOP });
    expect(unpaid.text).toBe(`Order ORD123 (Thornhill, P150.00) is unpaid. Pay: ${LINK}\nStop SMS: ${STOP}`);
    oneSegment(unpaid.text);
  });

  it('answers its segments when even the shortest names cannot fit (an absurd address): the preview shows the cost', () => {
    const huge = `https://${'x'.repeat(70)}.example/s/AbCdEfGh1234`;
    const sms = photosOnlineSms({ schoolName: LONG_SCHOOL, studentName: LONG_CHILD, closingDate: '2026-12-30', link: huge, stopUrl: huge });
    expect(sms.encoding).toBe('GSM-7');
    expect(sms.segments).toBe(2);
    expect(sms.units).toBe(smsSegments(sms.text).units);
  });
});
