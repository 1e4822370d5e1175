import { useState } from 'react';
import { PRICE_LIST_CARD_ITEMS } from '@contract/constants';
import { formatPula } from '@contract/money';
import type { PriceList } from '@contract/price-lists';
import { PWA_MSG, STAFF_MSG } from '@contract/messages';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { priceListFailure, useDeletePriceList, usePriceLists } from '../api/price-lists';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { PriceListEditor } from './price-list-editor';

export function PriceListsTab() {
  const lists = usePriceLists();
  const remove = useDeletePriceList();
  const [editing, setEditing] = useState<PriceList | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PriceList | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => toast({ title: STAFF_MSG.priceListDeletedTitle, description: STAFF_MSG.deleted(deleting.name), variant: 'success' }),
      onError: (err) => toast({ title: PWA_MSG.errorTitle, description: priceListFailure('delete', err), variant: 'destructive' }),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <div className="stack">
      <Card>
        <CardBody className="stack">
          <div className="row between">
            <h2>Price Lists</h2>
            {editing === null ? <Button onClick={() => setEditing('new')}>{STAFF_MSG.createPriceList}</Button> : null}
          </div>
          {editing !== null ? <PriceListEditor key={editing === 'new' ? 'new' : editing.id} list={editing === 'new' ? null : editing} onDone={() => setEditing(null)} /> : null}
        </CardBody>
      </Card>
      {lists.isPending ? <PageSpinner label="Loading price lists..." /> : null}
      {lists.data?.length === 0 ? <p className="muted">No price lists yet. Schools without one use the built-in products.</p> : null}
      <ul className="grid grid-2 staff-cards">
        {lists.data?.map((list) => (
          <li key={list.id}>
            <Card>
              <CardBody className="stack-tight">
                <h3>{list.name}</h3>
                {list.description ? <span className="muted">{list.description}</span> : null}
                <ul className="price-items">
                  {list.items.slice(0, PRICE_LIST_CARD_ITEMS).map((item) => (
                    <li key={item.id} className="row between">
                      <span>{item.productType}</span>
                      <span>{formatPula(item.price)}</span>
                    </li>
                  ))}
                </ul>
                {list.items.length > PRICE_LIST_CARD_ITEMS ? <span className="muted">+{list.items.length - PRICE_LIST_CARD_ITEMS} more</span> : null}
                <div className="row">
                  <Button variant="outline" size="sm" onClick={() => setEditing(list)} aria-label={`Edit ${list.name}`}>
                    Edit
                  </Button>
                  <Button variant="destructive" size="sm" onClick={() => setDeleting(list)} aria-label={`Delete ${list.name}`}>
                    Delete
                  </Button>
                </div>
              </CardBody>
            </Card>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete price list?"
        description={`${deleting?.name ?? 'This price list'} will be deleted. Schools using it fall back to the built-in products.`}
        confirmLabel="Delete Price List"
        busy={remove.isPending}
        onConfirm={confirmDelete}
      />
    </div>
  );
}
