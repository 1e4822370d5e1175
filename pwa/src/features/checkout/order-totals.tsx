/**
 * The cart's coupon field and its priced summary (docs/packages-and-coupons.md, "The order of
 * discounts"): subtotal, family discount, coupon, total, as the server's quote has them, so the
 * parent sees before paying exactly what `POST /api/orders` will charge. A refused coupon shows the
 * server's own reason at the field.
 */
import { useId, useState, type FormEvent } from 'react';
import { CART_MSG, COUPON_MSG, PACKAGE_MSG } from '@contract/messages';
import { couponCodeSchema } from '@contract/coupons';
import type { OrderQuote } from '@contract/orders';
import { formatPula } from '@contract/money';
import { OFFLINE_CART_MSG } from '@contract/offline-cart';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { FieldError, Label } from '../../components/ui/label';

export interface OrderTotalsProps {
  /** The server's pricing; null while it is asked for or when it could not be had. */
  quote: OrderQuote | null;
  loading: boolean;
  /** The quote failed for another reason than the coupon: the lines' own sum is shown. */
  failed: boolean;
  /** Thebe: the lines' sum, shown when there is no quote. */
  linesTotalThebe: number;
  /** The applied code, or null. */
  coupon: string | null;
  /** Why the last code was refused (the server's text), or null. */
  couponError: string | null;
  /** Asks the server about `code`; resolves once it answered (applied or refused). */
  onApply: (code: string) => Promise<void>;
  onRemove: () => void;
  disabled?: boolean;
}

export function OrderTotals({ quote, loading, failed, linesTotalThebe, coupon, couponError, onApply, onRemove, disabled = false }: OrderTotalsProps) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const [formatError, setFormatError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const error = formatError ?? couponError;

  const apply = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = couponCodeSchema.safeParse(draft);
    if (!parsed.success) {
      setFormatError(parsed.error.issues[0]?.message ?? COUPON_MSG.codeFormat);
      return;
    }
    setFormatError(null);
    setBusy(true);
    try {
      await onApply(parsed.data);
    } finally {
      setBusy(false);
    }
  };

  const row = (label: string, amount: string, negative = false) => (
    <div className="row between" key={label}>
      <span>{label}</span>
      <span>
        {negative ? '−' : ''}
        {formatPula(amount)}
      </span>
    </div>
  );

  return (
    <div className="stack" style={{ marginTop: 'var(--space-4)' }}>
      {coupon ? (
        <div className="row between">
          <span role="status">{COUPON_MSG.applied(coupon)}</span>
          <Button variant="ghost" size="sm" onClick={onRemove} disabled={disabled}>
            {COUPON_MSG.remove}
          </Button>
        </div>
      ) : (
        <form className="field" onSubmit={(event) => void apply(event)} noValidate>
          <Label htmlFor={`${id}-code`}>{COUPON_MSG.codeLabel}</Label>
          <div className="row" style={{ flexWrap: 'nowrap' }}>
            <Input
              id={`${id}-code`}
              value={draft}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              placeholder={COUPON_MSG.placeholder}
              invalid={Boolean(error)}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => {
                setDraft(event.target.value);
                setFormatError(null);
              }}
              disabled={disabled || busy}
            />
            <Button type="submit" variant="outline" disabled={disabled || busy || draft.trim() === ''}>
              {COUPON_MSG.apply}
            </Button>
          </div>
          {error ? <FieldError id={`${id}-error`}>{error}</FieldError> : null}
        </form>
      )}
      <div aria-live="polite" className="stack-tight" style={{ marginBottom: 0 }}>
        {quote ? (
          <>
            {row(CART_MSG.subtotal, quote.subtotal)}
            {quote.siblingDiscount !== '0.00' && quote.siblingPercent !== null ? row(PACKAGE_MSG.siblingLine(quote.siblingPercent), quote.siblingDiscount, true) : null}
            {quote.couponCode && quote.couponDiscount !== '0.00' ? row(COUPON_MSG.discountLine(quote.couponCode), quote.couponDiscount, true) : null}
            <div className="total-row">
              <span>{CART_MSG.total}</span>
              <span>{formatPula(quote.total)}</span>
            </div>
          </>
        ) : (
          <>
            {loading ? <span className="muted">{CART_MSG.quoteLoading}</span> : null}
            {failed ? <span className="muted">{CART_MSG.quoteFailed}</span> : null}
            <div className="total-row">
              {/* Without the server's quote the lines' sum is not what will be charged: said so. */}
              <span>{loading ? CART_MSG.total : OFFLINE_CART_MSG.total}</span>
              <span>{formatPula(linesTotalThebe, 'thebe')}</span>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
