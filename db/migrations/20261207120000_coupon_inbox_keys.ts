import type { Knex } from 'knex';

/**
 * A once-per-e-mail coupon's use is recorded under the inbox the address reaches, no longer under
 * the address in lower case (docs/packages-and-coupons.md, "One use per e-mail"): without a `+tag`,
 * and for Gmail without dots, so `Jane+1@gmail.com` and `j.a.n.e@gmail.com` are one family.
 * The uses already recorded (coupon_redemptions.once_key) are keyed again the same way. When two
 * of one coupon's uses now name the same inbox, the later keeps its old key: that family has used
 * the coupon already, and the first key is enough to say so.
 *
 * The rule is copied here as it stood (api/src/lib/inbox-key.ts), so this migration never changes.
 */
function inboxKey(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replace(/\./g, '') || local;
  return `${local}@${domain}`;
}

export async function up(knex: Knex): Promise<void> {
  const rows = (await knex('coupon_redemptions').whereNotNull('once_key').orderBy('id').select('id', 'coupon_id', 'once_key')) as { id: number; coupon_id: number; once_key: string }[];
  const taken = new Set(rows.map((row) => `${row.coupon_id}|${row.once_key}`));
  for (const row of rows) {
    const key = inboxKey(row.once_key);
    if (key === row.once_key || taken.has(`${row.coupon_id}|${key}`)) continue;
    await knex('coupon_redemptions').where({ id: row.id }).update({ once_key: key });
    taken.delete(`${row.coupon_id}|${row.once_key}`);
    taken.add(`${row.coupon_id}|${key}`);
  }
}

/** The old keys cannot be told back from the new; both are lower case, so the old code still reads them. */
export async function down(): Promise<void> {}
