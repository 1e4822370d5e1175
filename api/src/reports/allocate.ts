/**
 * What each sale line of an order earned (docs/reports.md#revenue-of-a-line): the order's total,
 * what was charged after every discount, shared over its lines in proportion to their totals
 * before discounts. Each share is floored, then the thebe left over go one by one to the lines
 * with the largest fractional remainders (ties: the earlier line first), so the shares add up to
 * the total exactly. Lists adding up to 0 give every line 0.
 *
 * Integer arithmetic only: a remainder is (total x list) mod subtotal, so no rounding error can
 * move a thebe whatever the sizes (200,000 orders of a few thousand thebe stay far below 2^53).
 */
export function allocateRevenue(total: number, lists: readonly number[]): number[] {
  const subtotal = lists.reduce((sum, list) => sum + list, 0);
  if (subtotal <= 0 || total <= 0) return lists.map(() => 0);
  const shares = lists.map((list) => Math.floor((total * list) / subtotal));
  const remainders = lists.map((list) => (total * list) % subtotal);
  let left = total - shares.reduce((sum, share) => sum + share, 0);
  const byRemainder = lists.map((_, index) => index).sort((a, b) => (remainders[b] ?? 0) - (remainders[a] ?? 0) || a - b);
  for (const index of byRemainder) {
    if (left <= 0) break;
    shares[index] = (shares[index] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}
