import { createHash } from 'node:crypto';
import type { OrderCreateInput } from '../../contract/orders';

/**
 * What an Idempotency-Key is bound to: the order request as the server read it (the parsed body,
 * so spacing and key order in the JSON do not matter) and who placed it. The same key with any
 * other request is a different order, not a replay.
 */
export function orderRequestHash(input: OrderCreateInput, customerId: number | null): string {
  return createHash('sha256').update(JSON.stringify({ customerId, input })).digest('hex');
}
