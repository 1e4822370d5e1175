/**
 * The inbox an e-mail address reaches, for limits that count per person rather than per spelling
 * (docs/packages-and-coupons.md, "One use per e-mail"): lower case, without a `+tag` in the local
 * part (most providers deliver `jane+spring@…` to `jane@…`), and for Gmail without the dots Gmail
 * ignores (`j.a.n.e@gmail.com` is `jane@gmail.com`; `googlemail.com` is Gmail too). Only for
 * comparing: mail still goes to the address as typed.
 */
export function inboxKey(email: string): string {
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
