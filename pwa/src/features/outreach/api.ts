/**
 * Guardians' calls (docs/outreach.md): subscribe from the gallery, confirm from the e-mail's page or with the SMS's code, one-click unsubscribe, and
 * bringing back a cart from a "still in your cart" e-mail. Each answer is checked with the
 * contract's schema before a screen shows it.
 */
import { type GuardianConfirmRequest } from '@contract/guardian-consent';
import type { GuardianConfirmByCode } from '@contract/guardian-phone';
import {
  cartRestoreResponseSchema,
  guardianConfirmResponseSchema,
  guardianSubscribeResponseSchema,
  guardianUnsubscribeResponseSchema,
  type CartRestoreResponse,
  type GuardianConfirmResponse,
  type GuardianSubscribeInput,
  type GuardianSubscribeResponse,
  type GuardianUnsubscribeResponse,
} from '@contract/outreach';
import { apiRequest } from '../../lib/api-client';

/** Follows what this browser has unlocked (the gallery cookie travels); sends the confirmation link. */
export async function subscribeGuardian(input: GuardianSubscribeInput): Promise<GuardianSubscribeResponse> {
  return guardianSubscribeResponseSchema.parse(await apiRequest<unknown>('/api/guardians/subscribe', { method: 'POST', body: input, auth: 'none' }));
}

/** A person's press of the confirmation page's button: the only way a browser gets the guardian cookie. */
export async function confirmGuardian(token: GuardianConfirmRequest['token']): Promise<GuardianConfirmResponse> {
  const body: GuardianConfirmRequest = { token };
  return guardianConfirmResponseSchema.parse(await apiRequest<unknown>('/api/guardians/confirm', { method: 'POST', body, auth: 'none' }));
}

/** The code from the SMS, entered on the gallery's page: confirms the number and sets the guardian cookie. */
export async function confirmGuardianCode(body: GuardianConfirmByCode): Promise<GuardianConfirmResponse> {
  return guardianConfirmResponseSchema.parse(await apiRequest<unknown>('/api/guardians/confirm', { method: 'POST', body, auth: 'none' }));
}

/** A POST from the page itself (RFC 8058): a mail scanner that only fetches the link changes nothing. */
export async function unsubscribeGuardian(token: string): Promise<GuardianUnsubscribeResponse> {
  const answer = await apiRequest<unknown>(`/api/guardians/unsubscribe?token=${encodeURIComponent(token)}`, { method: 'POST', body: {}, auth: 'none' });
  return guardianUnsubscribeResponseSchema.parse(answer);
}

/** The mirrored cart, priced now; the answer also sets the grant that shows its photos. */
export async function restoreCart(token: string): Promise<CartRestoreResponse> {
  return cartRestoreResponseSchema.parse(await apiRequest<unknown>('/api/guardians/cart/restore', { method: 'POST', body: { token }, auth: 'none' }));
}
