/**
 * After initiation: POST a hidden form with PAY_REQUEST_ID and CHECKSUM to processUrl, else go to
 * redirectUrl, else the answer is unusable.
 */
import { paymentInitiateResponseSchema } from '@contract/orders';

export const INVALID_PAYMENT_RESPONSE = 'Invalid payment response format';

export type GatewayStep =
  | { kind: 'post'; processUrl: string; fields: { PAY_REQUEST_ID: string; CHECKSUM: string } }
  | { kind: 'redirect'; url: string }
  | { kind: 'failed'; error: string | null }
  | { kind: 'invalid' };

export function nextGatewayStep(answer: unknown): GatewayStep {
  const parsed = paymentInitiateResponseSchema.safeParse(answer);
  if (!parsed.success) return { kind: 'invalid' };
  const { success, processUrl, payRequestId, checksum, redirectUrl, error } = parsed.data;
  if (success && processUrl && payRequestId && checksum) return { kind: 'post', processUrl, fields: { PAY_REQUEST_ID: payRequestId, CHECKSUM: checksum } };
  if (redirectUrl) return { kind: 'redirect', url: redirectUrl };
  if (!success) return { kind: 'failed', error: error ?? null };
  return { kind: 'invalid' };
}

export function postToGateway(processUrl: string, fields: Record<string, string>): void {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = processUrl;
  form.hidden = true;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}
