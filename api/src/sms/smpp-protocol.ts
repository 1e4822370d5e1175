/**
 * What this project reads and writes in SMPP 3.4 PDUs besides the standard fields (docs/sms.md,
 * "Sending" and "Delivery receipts"): the outbox message id carried in a TLV of the vendor range,
 * the delivery receipt's outcome, and which refusals are worth retrying.
 */
import smpp, { type PDU } from 'smpp';
import type { SmsDeliveryStatus } from '../outbox/outbox.repository';

/**
 * The outbox row's message id travels in each submit_sm as this TLV (0x1400, the first tag SMPP
 * leaves to vendors), so an SMS centre's logs, the test SMS centre and the bench can tell the
 * messages apart; an SMS centre ignores a TLV it does not know (SMPP 3.4, 3.2.5).
 */
export const OUTBOX_ID_TLV = 'x_outbox_message_id';
const OUTBOX_ID_TLV_TAG = 0x1400;

let registered = false;
/** Teaches the `smpp` package the TLV above; idempotent. */
export function registerSmppTlvs(): void {
  if (registered) return;
  registered = true;
  smpp.addTLV(OUTBOX_ID_TLV, { id: OUTBOX_ID_TLV_TAG, type: smpp.types.tlv.cstring });
}

/** A delivery receipt's message and outcome; null outcome for an intermediate one (en route, accepted). */
export interface Receipt {
  smscId: string;
  status: SmsDeliveryStatus | null;
}

const STAT: Record<string, SmsDeliveryStatus | null> = {
  DELIVRD: 'delivered',
  UNDELIV: 'failed',
  REJECTD: 'failed',
  DELETED: 'failed',
  EXPIRED: 'expired',
  ENROUTE: null,
  ACCEPTD: null,
  UNKNOWN: null,
};
const STATE: Record<number, SmsDeliveryStatus | null> = { 2: 'delivered', 3: 'expired', 4: 'failed', 5: 'failed', 8: 'failed' };

/** The text of a PDU's short_message as the package decoded it (a string, or `{ message }`). */
function shortMessageText(pdu: PDU): string {
  const value = pdu.short_message as unknown;
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  const message = (value as { message?: unknown } | null)?.message;
  if (typeof message === 'string') return message;
  if (Buffer.isBuffer(message)) return message.toString('latin1');
  return '';
}

/**
 * A deliver_sm that is a delivery receipt (esm_class's receipt bit): its message id and outcome,
 * from the receipted_message_id and message_state TLVs when present, else from the receipt text
 * ("id:… sub:… dlvrd:… submit date:… done date:… stat:DELIVRD err:…"). Null for anything else.
 */
export function parseReceipt(pdu: PDU): Receipt | null {
  const esm = Number(pdu.esm_class ?? 0);
  if ((esm & 0x3c) !== smpp.consts.ESM_CLASS.MC_DELIVERY_RECEIPT) return null;
  const text = shortMessageText(pdu);
  const idTlv = typeof pdu.receipted_message_id === 'string' ? pdu.receipted_message_id.trim() : '';
  const idText = /(?:^|\s)id:(\S+)/i.exec(text)?.[1] ?? '';
  const smscId = idTlv || idText;
  if (!smscId) return null;
  const state = typeof pdu.message_state === 'number' ? pdu.message_state : null;
  const stat = /(?:^|\s)stat:([A-Z]+)/i.exec(text)?.[1]?.toUpperCase() ?? null;
  const status = state !== null && state in STATE ? (STATE[state] ?? null) : stat !== null ? (STAT[stat] ?? null) : null;
  return { smscId, status };
}

/**
 * Refusals an SMS centre may answer differently later (docs/sms.md, "Sending"): throttling, a
 * full queue, a system error, a temporary application error. Any other non-zero status of a
 * submit_sm_resp (a bad number, a refused sender, a bad message) fails the message for good.
 */
export function isTransientStatus(status: number): boolean {
  return [smpp.ESME_RTHROTTLED, smpp.ESME_RMSGQFUL, smpp.ESME_RSYSERR, smpp.ESME_RX_T_APPN, 0x0045 /* ESME_RSUBMITFAIL */].includes(status);
}

/** An SMPP status as its name (ESME_RTHROTTLED), for errors and logs. */
export function statusName(status: number): string {
  const name = Object.entries(smpp.errors).find(([, value]) => value === status)?.[0];
  return name ?? `0x${status.toString(16).padStart(8, '0')}`;
}
