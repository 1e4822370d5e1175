import { useState } from 'react';
import { z } from 'zod';
import { MSG, PWA_MSG } from '@contract/messages';
import { PACKAGE_EDITOR_MSG, STAFF_MSG } from '@contract/staff-screen-messages';
import type { PriceList } from '@contract/price-lists';
import { PRODUCT_KINDS, PRODUCT_KIND_LABELS, type ProductKind } from '@contract/constants';
import { Select } from '../../../components/ui/select';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toast';
import { useZodForm } from '../../../lib/form';
import { completeRows, packageMissingProduct, priceListFailure, useSavePriceList, type EditorPackage, type EditorRow, type EditorSibling } from '../api/price-lists';
import { FormActions } from '../../../components/ui/form-actions';
import { PackagesEditor, packagesOf } from './packages-editor';
import { SiblingDiscountEditor, siblingOf } from './sibling-discount-editor';

let rowKey = 0;
const blankRow = (): EditorRow => ({ key: `row-${(rowKey += 1)}`, name: '', description: '', price: '', image: null, existingImagePath: '', kind: 'print', size: '' });

/** The product rows, and which row holds each item id (packages refer to products by it). */
function rowsOf(list: PriceList | null): { rows: EditorRow[]; keyOfItem: Map<number, string> } {
  const keyOfItem = new Map<number, string>();
  if (!list || list.items.length === 0) return { rows: [blankRow()], keyOfItem };
  const rows = list.items.map((item) => {
    const row = { ...blankRow(), name: item.productType, description: item.description, price: item.price, existingImagePath: item.exampleImage ?? '', kind: item.kind, size: item.size ?? '' };
    keyOfItem.set(item.id, row.key);
    return row;
  });
  return { rows, keyOfItem };
}

/** The list's own fields; the product rows are checked on submit (at least one complete row). */
const headSchema = z.object({ name: z.string().trim().min(1, MSG.priceListNameRequired), description: z.string() });

/** Create or edit a price list (incomplete rows dropped, the last row stays). */
export function PriceListEditor({ list, onDone }: { list: PriceList | null; onDone: () => void }) {
  const { values, errors, set, handleSubmit } = useZodForm(headSchema, { name: list?.name ?? '', description: list?.description ?? '' });
  const [initial] = useState(() => rowsOf(list));
  const [rows, setRows] = useState<EditorRow[]>(initial.rows);
  const [packages, setPackages] = useState<EditorPackage[]>(() => packagesOf(list, initial.keyOfItem));
  const [sibling, setSibling] = useState<EditorSibling>(() => siblingOf(list));
  const save = useSavePriceList();
  const editing = list !== null;

  const update = (key: string, change: Partial<EditorRow>) => setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const fail = (description: string) => toast({ title: PWA_MSG.errorTitle, description, variant: 'destructive' });

  const submit = handleSubmit(
    () => {
      if (completeRows(rows).length === 0) return fail(MSG.priceListProductsRequired);
      const missing = packageMissingProduct({ rows, packages });
      if (missing !== null) return fail(PACKAGE_EDITOR_MSG.contentNeedsProduct(missing));
      save.mutate(
        { id: list?.id ?? null, draft: { name: values.name, description: values.description, rows, packages, sibling } },
        {
          onSuccess: (saved) => {
            toast({ title: editing ? STAFF_MSG.priceListUpdatedTitle : STAFF_MSG.priceListCreatedTitle, description: STAFF_MSG.savedPriceList(saved.name), variant: 'success' });
            onDone();
          },
          onError: (err) => fail(priceListFailure(editing ? 'update' : 'create', err)),
        },
      );
    },
    (found) => fail(found.name ?? MSG.priceListNameRequired),
  );

  return (
    <form onSubmit={submit} noValidate className="stack" aria-label={editing ? 'Edit price list' : 'Create price list'}>
      <h3>{editing ? `Edit ${list.name}` : 'New price list'}</h3>
      <div className="grid grid-2">
        <Field id="price-list-name" label="Price list name" value={values.name} onChange={set('name')} error={errors.name} />
        <Field id="price-list-description" label="Description" multiline rows={2} value={values.description} onChange={set('description')} error={errors.description} />
      </div>
      <fieldset className="staff-fieldset stack">
        <legend className="label">Products</legend>
        {rows.map((row, index) => (
          <div key={row.key} className="product-editor-row" role="group" aria-label={`Product ${index + 1}`}>
            <Field id={`${row.key}-name`} label="Product name" value={row.name} onChange={(event) => update(row.key, { name: event.target.value })} />
            <Field id={`${row.key}-price`} label="Price (P)" type="number" inputMode="decimal" min="0" step="0.01" value={row.price} onChange={(event) => update(row.key, { price: event.target.value })} />
            <div className="field">
              <Label htmlFor={`${row.key}-kind`}>Kind</Label>
              <Select id={`${row.key}-kind`} value={row.kind} onChange={(event) => update(row.key, { kind: event.target.value as ProductKind })}>
                {PRODUCT_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {PRODUCT_KIND_LABELS[kind]}
                  </option>
                ))}
              </Select>
            </div>
            <Field id={`${row.key}-size`} label="Print size" placeholder="10x15 cm" disabled={row.kind !== 'print'} value={row.kind === 'print' ? row.size : ''} onChange={(event) => update(row.key, { size: event.target.value })} />
            <Field id={`${row.key}-description`} label="Description" value={row.description} onChange={(event) => update(row.key, { description: event.target.value })} />
            <div className="field">
              <Label htmlFor={`${row.key}-image`}>Example image</Label>
              {row.existingImagePath && !row.image ? <img src={row.existingImagePath} alt={`Current example for ${row.name || `product ${index + 1}`}`} className="product-example" /> : null}
              <input id={`${row.key}-image`} type="file" accept="image/jpeg,image/png,image/gif" onChange={(event) => update(row.key, { image: event.target.files?.[0] ?? null })} />
            </div>
            <Button variant="ghost" size="sm" disabled={rows.length <= 1} onClick={() => setRows((current) => current.filter((other) => other.key !== row.key))} aria-label={`Remove product ${index + 1}`}>
              Remove
            </Button>
          </div>
        ))}
        <Button variant="outline" onClick={() => setRows((current) => [...current, blankRow()])}>
          Add Product
        </Button>
      </fieldset>
      <PackagesEditor rows={rows} packages={packages} onChange={setPackages} />
      <SiblingDiscountEditor value={sibling} onChange={setSibling} />
      <FormActions busy={save.isPending} busyLabel="Saving..." label={editing ? 'Update Price List' : STAFF_MSG.createPriceList} onCancel={onDone} />
    </form>
  );
}
