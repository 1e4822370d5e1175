import { decimalToThebe, formatPula } from '@contract/money';
import type { PriceList } from '@contract/price-lists';
import { PACKAGE_EDITOR_MSG } from '@contract/staff-screen-messages';
import { packagePieces } from '@contract/package-filling';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import type { EditorContent, EditorPackage, EditorRow } from '../api/price-lists';

let packageKey = 0;
const nextKey = (prefix: string) => `${prefix}-${(packageKey += 1)}`;

const blankContent = (): EditorContent => ({ key: nextKey('content'), productKey: '', quantity: '1' });
const blankPackage = (): EditorPackage => ({ key: nextKey('package'), name: '', description: '', price: '', maxPoses: '', contents: [blankContent()] });

/** The list's packages as editor rows; each content row points at the product row holding its item. */
export function packagesOf(list: PriceList | null, keyOfItem: ReadonlyMap<number, string>): EditorPackage[] {
  return (list?.packages ?? []).map((pkg) => ({
    key: nextKey('package'),
    name: pkg.name,
    description: pkg.description,
    price: pkg.price,
    maxPoses: pkg.maxPoses === null ? '' : String(pkg.maxPoses),
    contents: pkg.items.map((item) => ({ key: nextKey('content'), productKey: keyOfItem.get(item.productId) ?? '', quantity: String(item.quantity) })),
  }));
}

/**
 * What the contents cost as single products (the rows' prices as typed) and what the package
 * saves against that, as the gallery will show it (docs/packages-and-coupons.md, "Packages").
 */
export function packageWorth(pkg: EditorPackage, rows: readonly EditorRow[]): { worthThebe: number; saveThebe: number | null } {
  const prices = new Map(rows.map((row) => [row.key, decimalToThebe(row.price.trim())]));
  let worthThebe = 0;
  for (const content of pkg.contents) {
    const price = prices.get(content.productKey);
    const quantity = /^\d+$/.test(content.quantity.trim()) ? Number(content.quantity) : 0;
    if (price !== null && price !== undefined) worthThebe += price * quantity;
  }
  const priceThebe = pkg.price.trim() === '' ? null : decimalToThebe(pkg.price.trim());
  return { worthThebe, saveThebe: priceThebe === null ? null : Math.max(0, worthThebe - priceThebe) };
}

interface PackagesEditorProps {
  rows: readonly EditorRow[];
  packages: EditorPackage[];
  onChange: (update: (current: EditorPackage[]) => EditorPackage[]) => void;
}

/** The price list editor's Packages section: name, price, description, contents, poses limit. */
export function PackagesEditor({ rows, packages, onChange }: PackagesEditorProps) {
  const named = rows.filter((row) => row.name.trim() !== '');
  const change = (key: string, patch: (pkg: EditorPackage) => EditorPackage) => onChange((current) => current.map((pkg) => (pkg.key === key ? patch(pkg) : pkg)));
  const changeContent = (pkgKey: string, contentKey: string, patch: Partial<EditorContent>) =>
    change(pkgKey, (pkg) => ({ ...pkg, contents: pkg.contents.map((content) => (content.key === contentKey ? { ...content, ...patch } : content)) }));

  return (
    <fieldset className="staff-fieldset stack">
      <legend className="label">{PACKAGE_EDITOR_MSG.packagesTitle}</legend>
      <p className="muted">{PACKAGE_EDITOR_MSG.packagesHelp}</p>
      {packages.map((pkg, index) => {
        const { worthThebe, saveThebe } = packageWorth(pkg, rows);
        return (
          <div key={pkg.key} className="package-editor stack-tight" role="group" aria-label={PACKAGE_EDITOR_MSG.packageGroup(index + 1)}>
            <div className="package-editor-head">
              <Field id={`${pkg.key}-name`} label={PACKAGE_EDITOR_MSG.packageName} value={pkg.name} onChange={(event) => change(pkg.key, (p) => ({ ...p, name: event.target.value }))} />
              <Field
                id={`${pkg.key}-price`}
                label={PACKAGE_EDITOR_MSG.packagePrice}
                type="number"
                inputMode="decimal"
                min="0"
                step="0.01"
                value={pkg.price}
                onChange={(event) => change(pkg.key, (p) => ({ ...p, price: event.target.value }))}
              />
              <Field
                id={`${pkg.key}-poses`}
                label={PACKAGE_EDITOR_MSG.maxPoses}
                hint={PACKAGE_EDITOR_MSG.maxPosesHint}
                type="number"
                inputMode="numeric"
                min="1"
                max={String(Math.min(20, Math.max(1, packagePieces(pkg.contents.map((content) => ({ quantity: /^\d+$/.test(content.quantity.trim()) ? Number(content.quantity) : 1 }))))))}
                step="1"
                value={pkg.maxPoses}
                onChange={(event) => change(pkg.key, (p) => ({ ...p, maxPoses: event.target.value }))}
              />
            </div>
            <Field
              id={`${pkg.key}-description`}
              label={PACKAGE_EDITOR_MSG.packageDescription}
              value={pkg.description}
              onChange={(event) => change(pkg.key, (p) => ({ ...p, description: event.target.value }))}
            />
            <div className="stack-tight" role="group" aria-label={`${PACKAGE_EDITOR_MSG.contentsTitle} ${index + 1}`}>
              <span className="label">{PACKAGE_EDITOR_MSG.contentsTitle}</span>
              {pkg.contents.map((content, contentIndex) => {
                const chosen = named.some((row) => row.key === content.productKey) ? content.productKey : '';
                return (
                  <div key={content.key} className="package-content-row" role="group" aria-label={PACKAGE_EDITOR_MSG.contentRow(contentIndex + 1)}>
                    <div className="field">
                      <Label htmlFor={`${content.key}-product`}>{PACKAGE_EDITOR_MSG.product}</Label>
                      <Select id={`${content.key}-product`} value={chosen} onChange={(event) => changeContent(pkg.key, content.key, { productKey: event.target.value })}>
                        <option value="">{PACKAGE_EDITOR_MSG.chooseProduct}</option>
                        {named.map((row) => (
                          <option key={row.key} value={row.key}>
                            {row.name.trim()}
                          </option>
                        ))}
                      </Select>
                    </div>
                    <Field
                      id={`${content.key}-quantity`}
                      label={PACKAGE_EDITOR_MSG.quantity}
                      type="number"
                      inputMode="numeric"
                      min="1"
                      max="10"
                      step="1"
                      value={content.quantity}
                      onChange={(event) => changeContent(pkg.key, content.key, { quantity: event.target.value })}
                    />
                    <Button
                      variant="ghost"
                      size="sm"
                      disabled={pkg.contents.length <= 1}
                      onClick={() => change(pkg.key, (p) => ({ ...p, contents: p.contents.filter((other) => other.key !== content.key) }))}
                      aria-label={`${PACKAGE_EDITOR_MSG.removeContent(contentIndex + 1)} of ${PACKAGE_EDITOR_MSG.packageGroup(index + 1).toLowerCase()}`}
                    >
                      Remove
                    </Button>
                  </div>
                );
              })}
              <div className="row between">
                <Button variant="outline" size="sm" onClick={() => change(pkg.key, (p) => ({ ...p, contents: [...p.contents, blankContent()] }))}>
                  {PACKAGE_EDITOR_MSG.addContent}
                </Button>
                {worthThebe > 0 ? (
                  <span className="muted" aria-live="polite">
                    {saveThebe === null
                      ? PACKAGE_EDITOR_MSG.contentsWorthOnly(formatPula(worthThebe, 'thebe'))
                      : PACKAGE_EDITOR_MSG.contentsWorth(formatPula(worthThebe, 'thebe'), formatPula(saveThebe, 'thebe'))}
                  </span>
                ) : null}
              </div>
            </div>
            <div>
              <Button variant="ghost" size="sm" onClick={() => onChange((current) => current.filter((other) => other.key !== pkg.key))} aria-label={PACKAGE_EDITOR_MSG.removePackage(index + 1)}>
                Remove package
              </Button>
            </div>
          </div>
        );
      })}
      <Button variant="outline" onClick={() => onChange((current) => [...current, blankPackage()])}>
        {PACKAGE_EDITOR_MSG.addPackage}
      </Button>
    </fieldset>
  );
}
