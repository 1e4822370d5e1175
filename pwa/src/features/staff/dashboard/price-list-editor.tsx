import { useState, type FormEvent } from 'react';
import { MSG, PWA_MSG } from '@contract/messages';
import type { PriceList } from '@contract/price-lists';
import { Button } from '../../../components/ui/button';
import { Input, Textarea } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toast';
import { completeRows, priceListFailure, useSavePriceList, type EditorRow } from '../api/price-lists';

let rowKey = 0;
const blankRow = (): EditorRow => ({ key: `row-${(rowKey += 1)}`, name: '', description: '', price: '', image: null, existingImagePath: '' });

function rowsOf(list: PriceList | null): EditorRow[] {
  if (!list || list.items.length === 0) return [blankRow()];
  return list.items.map((item) => ({ ...blankRow(), name: item.productType, description: item.description, price: item.price, existingImagePath: item.exampleImage ?? '' }));
}

/** Create or edit a price list (incomplete rows dropped, the last row stays). */
export function PriceListEditor({ list, onDone }: { list: PriceList | null; onDone: () => void }) {
  const [name, setName] = useState(list?.name ?? '');
  const [description, setDescription] = useState(list?.description ?? '');
  const [rows, setRows] = useState<EditorRow[]>(() => rowsOf(list));
  const save = useSavePriceList();
  const editing = list !== null;

  const update = (key: string, change: Partial<EditorRow>) => setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return toast({ title: PWA_MSG.errorTitle, description: MSG.priceListNameRequired, variant: 'destructive' });
    if (completeRows(rows).length === 0) return toast({ title: PWA_MSG.errorTitle, description: MSG.priceListProductsRequired, variant: 'destructive' });
    save.mutate(
      { id: list?.id ?? null, draft: { name, description, rows } },
      {
        onSuccess: (saved) => {
          toast({ title: editing ? 'Price List Updated' : 'Price List Created', description: `${saved.name} has been saved.`, variant: 'success' });
          onDone();
        },
        onError: (err) => toast({ title: PWA_MSG.errorTitle, description: priceListFailure(editing ? 'update' : 'create', err), variant: 'destructive' }),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="stack" aria-label={editing ? 'Edit price list' : 'Create price list'}>
      <h3>{editing ? `Edit ${list.name}` : 'New price list'}</h3>
      <div className="grid grid-2">
        <div className="field">
          <Label htmlFor="price-list-name">Price list name</Label>
          <Input id="price-list-name" value={name} onChange={(event) => setName(event.target.value)} />
        </div>
        <div className="field">
          <Label htmlFor="price-list-description">Description</Label>
          <Textarea id="price-list-description" rows={2} value={description} onChange={(event) => setDescription(event.target.value)} />
        </div>
      </div>
      <fieldset className="staff-fieldset stack">
        <legend className="label">Products</legend>
        {rows.map((row, index) => (
          <div key={row.key} className="product-editor-row" role="group" aria-label={`Product ${index + 1}`}>
            <div className="field">
              <Label htmlFor={`${row.key}-name`}>Product name</Label>
              <Input id={`${row.key}-name`} value={row.name} onChange={(event) => update(row.key, { name: event.target.value })} />
            </div>
            <div className="field">
              <Label htmlFor={`${row.key}-price`}>Price (P)</Label>
              <Input id={`${row.key}-price`} type="number" inputMode="decimal" min="0" step="0.01" value={row.price} onChange={(event) => update(row.key, { price: event.target.value })} />
            </div>
            <div className="field">
              <Label htmlFor={`${row.key}-description`}>Description</Label>
              <Input id={`${row.key}-description`} value={row.description} onChange={(event) => update(row.key, { description: event.target.value })} />
            </div>
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
      <div className="row">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : editing ? 'Update Price List' : 'Create Price List'}
        </Button>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
