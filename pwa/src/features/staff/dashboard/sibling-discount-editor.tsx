import type { PriceList } from '@contract/price-lists';
import { PACKAGE_EDITOR_MSG } from '@contract/staff-screen-messages';
import { Checkbox } from '../../../components/ui/checkbox';
import { Field } from '../../../components/ui/field';
import { Label } from '../../../components/ui/label';
import type { EditorSibling } from '../api/price-lists';

/** The list's family discount as edited; a list without one starts switched off. */
export function siblingOf(list: PriceList | null): EditorSibling {
  const discount = list?.siblingDiscount ?? null;
  return discount === null ? { enabled: false, percent: '10', maxChildren: '3' } : { enabled: true, percent: String(discount.percent), maxChildren: String(discount.maxChildren) };
}

/** The price list editor's Sibling discount section (docs/packages-and-coupons.md, "Family pricing"). */
export function SiblingDiscountEditor({ value, onChange }: { value: EditorSibling; onChange: (next: EditorSibling) => void }) {
  return (
    <fieldset className="staff-fieldset stack">
      <legend className="label">{PACKAGE_EDITOR_MSG.siblingTitle}</legend>
      <div className="row">
        <Checkbox id="sibling-enabled" checked={value.enabled} onCheckedChange={(checked) => onChange({ ...value, enabled: checked === true })} />
        <Label htmlFor="sibling-enabled">{PACKAGE_EDITOR_MSG.siblingOffer}</Label>
      </div>
      <p className="muted">{PACKAGE_EDITOR_MSG.siblingHelp}</p>
      {value.enabled ? (
        <div className="grid grid-2">
          <Field
            id="sibling-percent"
            label={PACKAGE_EDITOR_MSG.siblingPercent}
            type="number"
            inputMode="numeric"
            min="1"
            max="100"
            step="1"
            value={value.percent}
            onChange={(event) => onChange({ ...value, percent: event.target.value })}
          />
          <Field
            id="sibling-max-children"
            label={PACKAGE_EDITOR_MSG.siblingMaxChildren}
            type="number"
            inputMode="numeric"
            min="2"
            max="20"
            step="1"
            value={value.maxChildren}
            onChange={(event) => onChange({ ...value, maxChildren: event.target.value })}
          />
        </div>
      ) : null}
    </fieldset>
  );
}
