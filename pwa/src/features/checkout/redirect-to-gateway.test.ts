import { describe, expect, it } from 'vitest';
import { nextGatewayStep } from './redirect-to-gateway';

describe('after payment initiation', () => {
  it('posts PAY_REQUEST_ID and CHECKSUM to processUrl', () => {
    expect(nextGatewayStep({ success: true, processUrl: 'https://gw/process', payRequestId: 'P1', checksum: 'C1' })).toEqual({
      kind: 'post',
      processUrl: 'https://gw/process',
      fields: { PAY_REQUEST_ID: 'P1', CHECKSUM: 'C1' },
    });
  });
  it('goes to redirectUrl otherwise', () => {
    expect(nextGatewayStep({ success: true, redirectUrl: 'https://gw/pay' })).toEqual({ kind: 'redirect', url: 'https://gw/pay' });
  });
  it('reports a failure with its error', () => {
    expect(nextGatewayStep({ success: false, error: 'Unable to process payment' })).toEqual({ kind: 'failed', error: 'Unable to process payment' });
  });
  it('calls anything else an invalid payment response', () => {
    expect(nextGatewayStep({ success: true })).toEqual({ kind: 'invalid' });
    expect(nextGatewayStep('<html>')).toEqual({ kind: 'invalid' });
    expect(nextGatewayStep(null)).toEqual({ kind: 'invalid' });
  });
});
