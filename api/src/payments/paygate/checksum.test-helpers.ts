import type { InitiateFields } from './checksum';

/** PayGate's test merchant id, which the sandbox accepts with the key `secret`. */
export const TEST_PAYGATE_ID = '10011072130';

/** A complete initiate request in pula, as the shop sends one: the fields the checksum tests and the sandbox tests share. */
export const BWP_INITIATE: InitiateFields = {
  PAYGATE_ID: TEST_PAYGATE_ID,
  REFERENCE: 'ORD-1001',
  AMOUNT: '12550',
  CURRENCY: 'BWP',
  RETURN_URL: 'https://shop.example.bw/pay/return',
  TRANSACTION_DATE: '2025-01-15 08:30:00',
  LOCALE: 'en',
  COUNTRY: 'BWA',
  EMAIL: 'buyer@example.bw',
  NOTIFY_URL: 'https://shop.example.bw/pay/notify',
};
