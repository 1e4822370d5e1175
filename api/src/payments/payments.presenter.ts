import { ORDER_MSG } from '../../contract/messages';
import type { InitiationOutcome } from './payments.service';

/**
 * The initiate endpoint's body: the gateway's request for the PWA to post to PayGate, or the
 * message that payment is unavailable right now (sent with 502).
 */
export function presentInitiation(outcome: InitiationOutcome) {
  if (!outcome.ok) return { success: false, error: ORDER_MSG.paymentUnavailable, message: ORDER_MSG.paymentUnavailable };
  // Nothing to pay: the order is paid already, the PWA goes straight to its confirmation page.
  if ('free' in outcome) return { success: true, redirectUrl: `/order-confirmation/${encodeURIComponent(outcome.free.orderId)}` };
  const { processUrl, payRequestId, checksum } = outcome.request;
  return { success: true, processUrl, payRequestId, checksum };
}
