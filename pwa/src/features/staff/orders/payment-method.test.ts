import { describe, expect, it } from 'vitest';
import { csvPaymentMethod, reportedMethod, staffPaymentMethod } from './payment-method';

const paid = (paymentMethod: 'card' | 'ewallet' | 'bank_transfer' | null, gatewayPayMethod: string | null, gatewayPayMethodDetail: string | null) => ({
  paymentMethod,
  gatewayPayMethod,
  gatewayPayMethodDetail,
});

describe('how an order was paid, for staff', () => {
  it('names the chosen method and what the gateway reported', () => {
    expect(staffPaymentMethod(paid('bank_transfer', 'BT', 'SID'))).toBe('Bank transfer · Gateway: BT (SID)');
    expect(staffPaymentMethod(paid('card', 'CC', 'Visa'))).toBe('Card · Gateway: CC (Visa)');
    expect(staffPaymentMethod(paid('ewallet', 'EW', null))).toBe('Mobile money (e-wallet) · Gateway: EW');
    expect(staffPaymentMethod(paid('ewallet', null, null))).toBe('Mobile money (e-wallet)');
    expect(staffPaymentMethod(paid(null, 'CC', 'MasterCard'))).toBe('Not chosen · Gateway: CC (MasterCard)');
    expect(staffPaymentMethod(paid(null, null, null))).toBeNull();
    expect(reportedMethod(paid(null, '  ', 'SID'))).toBeNull();
  });

  it('writes the CSV cell as the label and the reported codes', () => {
    expect(csvPaymentMethod(paid('bank_transfer', 'BT', 'SID'))).toBe('Bank transfer (BT SID)');
    expect(csvPaymentMethod(paid('card', 'CC', 'Visa'))).toBe('Card (CC Visa)');
    expect(csvPaymentMethod(paid('ewallet', null, null))).toBe('Mobile money (e-wallet)');
    // Begun before methods existed: the gateway's code says which.
    expect(csvPaymentMethod(paid(null, 'cc', 'Visa'))).toBe('Card (cc Visa)');
    expect(csvPaymentMethod(paid(null, 'XX', null))).toBe('XX');
    expect(csvPaymentMethod(paid(null, null, null))).toBe('');
  });
});
