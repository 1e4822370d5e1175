import { useState } from 'react';
import { PRICE_LIST_CARD_ITEMS } from '@contract/constants';
import { formatPula } from '@contract/money';
import type { PriceList } from '@contract/price-lists';
import { PACKAGE_EDITOR_MSG, STAFF_MSG } from '@contract/staff-screen-messages';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { priceListFailure, useDeletePriceList, usePriceLists } from '../api/price-lists';
import { useConfirmDelete } from '../use-confirm-delete';
import { PriceListEditor } from './price-list-editor';

export function PriceListsTab() {
  const lists = usePriceLists();
  const remove = useDeletePriceList();
  const [editing, setEditing] = useState<PriceList | 'new' | null>(null);
  const deletion = useConfirmDelete<PriceList, unknown>(remove, {
    title: STAFF_MSG.deletePriceListQuestion,
    description: (list) => STAFF_MSG.deletePriceListWarning(list?.name ?? null),
    confirmLabel: STAFF_MSG.deletePriceList,
    deletedTitle: STAFF_MSG.priceListDeletedTitle,
    deleted: (list) => STAFF_MSG.deleted(list.name),
    failed: (err) => priceListFailure('delete', err),
  });

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
                      <span>
                        {item.productType} <span className="muted">· {item.kind === 'digital' ? 'Digital' : item.size ? `Print ${item.size}` : 'Print'}</span>
                      </span>
                      <span>{formatPula(item.price)}</span>
                    </li>
                  ))}
                </ul>
                {list.items.length > PRICE_LIST_CARD_ITEMS ? <span className="muted">+{list.items.length - PRICE_LIST_CARD_ITEMS} more</span> : null}
                {list.packages.length > 0 ? (
                  <span className="muted">
                    {PACKAGE_EDITOR_MSG.packagesOnCard(list.packages.length)}: {list.packages.map((pkg) => `${pkg.name} ${formatPula(pkg.price)}`).join(', ')}
                  </span>
                ) : null}
                {list.siblingDiscount ? <span className="muted">{PACKAGE_EDITOR_MSG.siblingSummary(list.siblingDiscount.percent, list.siblingDiscount.maxChildren)}</span> : null}
                <div className="row">
                  <Button variant="outline" size="sm" onClick={() => setEditing(list)} aria-label={`Edit ${list.name}`}>
                    Edit
                  </Button>
                  <Button variant="destructive" size="sm" onClick={() => deletion.ask(list)} aria-label={`Delete ${list.name}`}>
                    Delete
                  </Button>
                </div>
              </CardBody>
            </Card>
          </li>
        ))}
      </ul>
      {deletion.dialog}
    </div>
  );
}
