import { describe, expect, it } from 'vitest';
import { CODE_RECOVERY_MAX_SMS } from '../../contract/code-recovery';
import { ORDER_SMS_MSG, fitSms, smsShopName } from '../../contract/order-sms';
import { smsSegments } from '../../contract/sms-text';
import { composeRecoverySms } from './code-recovery';

const oneSegment = (text: string) => expect(smsSegments(text), text).toMatchObject({ encoding: 'GSM-7', segments: 1 });
const LINK = 'https://photos.example.co.bw/s/AbCdEfGh1234';
const LONG_LINK = 'https://school-photos.studio-of-francistown.example.co.bw/s/AbCdEfGh1234';

describe('the recovery SMS (docs/sms.md, "Codes recovered by phone")', () => {
  it('one child: one SMS with the name in GSM-7 letters, the code and the link', () => {
    const [sms, ...more] = composeRecoverySms('Test Studio', [{ name: 'Nthabiseng Ṱhabo', code: 'K7Q2-M9XD', link: LINK }]);
    expect(more).toEqual([]);
    expect(sms).toBe(`Test Studio photo code:\nNthabiseng Thabo K7Q2-M9XD ${LINK}`);
    oneSegment(sms!);
  });

  it('children that do not fit one SMS go in as few as needed, each one segment, at most CODE_RECOVERY_MAX_SMS', () => {
    const children = Array.from({ length: 9 }, (_, i) => ({ name: `Child Number${i} Motswana-Kgosietsile`, code: `ABC${i}-DEFG`, link: LONG_LINK }));
    const messages = composeRecoverySms('Studio Name Quite Long', children);
    expect(messages).toHaveLength(CODE_RECOVERY_MAX_SMS);
    for (const message of messages) oneSegment(message);
    // Every child in them is whole: its code and its link.
    const named = children.filter((child) => messages.some((message) => message.includes(child.code)));
    for (const child of named) expect(messages.find((message) => message.includes(child.code))).toContain(`${child.code} ${LONG_LINK}`);
    expect(named.length).toBeGreaterThanOrEqual(CODE_RECOVERY_MAX_SMS);

    const two = composeRecoverySms('Test Studio', [
      { name: 'Neo Dube', code: 'K7Q2-M9XD', link: LINK },
      { name: 'Zoe Dube', code: 'P3R4-S5T6', link: LINK },
    ]);
    expect(two).toHaveLength(1);
    expect(two[0]).toBe(`Test Studio photo codes:\nNeo Dube K7Q2-M9XD ${LINK}\nZoe Dube P3R4-S5T6 ${LINK}`);
  });

  it('a name too long for its SMS is cut, never the link', () => {
    const [sms] = composeRecoverySms('Test Studio', [{ name: 'A'.repeat(200), code: 'K7Q2-M9XD', link: LONG_LINK }]);
    oneSegment(sms!);
    expect(sms!.endsWith(`K7Q2-M9XD ${LONG_LINK}`)).toBe(true);
  });
});

describe('the order SMS (docs/sms.md, "Transactional SMS")', () => {
  it('each wording fits one segment, with the shop name cut and the link whole', () => {
    const shop = smsShopName('Kgalagadi School Photography & Framing (Pty) Ltd');
    expect(shop.length).toBeLessThanOrEqual(20);
    for (const link of [LINK, LONG_LINK]) {
      for (const text of [
        fitSms(ORDER_SMS_MSG.paid(shop, 'K7X2-ABCD', true, link)),
        fitSms(ORDER_SMS_MSG.transferAwaiting(shop, 'K7X2-ABCD', 'P1,250.00', '15 Dec', link)),
        fitSms(ORDER_SMS_MSG.transferExpired(shop, 'K7X2-ABCD', 7, link)),
      ]) {
        oneSegment(text);
        expect(text.endsWith(link)).toBe(true);
        expect(text).toContain('K7X2-ABCD');
      }
    }
    // With room, the first (longest) wording.
    expect(fitSms(ORDER_SMS_MSG.paid('Test Studio', 'K7X2-ABCD', true, LINK))).toBe(`Test Studio: thank you, order K7X2-ABCD is paid. Your order and downloads: ${LINK}`);
  });

  it('an address too long for every wording still gives one segment ending with the link', () => {
    const huge = `https://${'x'.repeat(120)}.example/s/AbCdEfGh1234`;
    const text = fitSms(ORDER_SMS_MSG.paid('Test Studio', 'K7X2-ABCD', true, huge));
    oneSegment(text);
    expect(text.endsWith(huge)).toBe(true);
  });
});
