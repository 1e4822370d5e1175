/**
 * 'Select Products for Photo': an empty selection on open, ticking selects with
 * quantity 1, quantity 1–10, running totals, Add to Cart disabled without a selection. The
 * watermarked preview is requested only while the dialog is open.
 */
import { useDeferredValue, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { GalleryPhoto as Photo } from '@contract/photos';
import { DEFAULT_PRODUCT_DESCRIPTION, QUANTITY_MAX, QUANTITY_MIN } from '@contract/constants';
import { FIRST_VISIT_MSG } from '@contract/first-visit-messages';
import { PHOTO_DIALOG_MSG } from '@contract/pwa-messages';
import { formatPula } from '@contract/money';
import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { Select } from '../../components/ui/select';
import { Spinner } from '../../components/ui/spinner';
import { GalleryImage } from '../../components/authed-image';
import { lineTotal, toThebe } from '../../lib/cart';
import { previewUrl } from './api';
import { familyPhotoLabel, photoLabel } from '@contract/photo-names';
import type { Product } from './products';

const QUANTITIES = Array.from({ length: QUANTITY_MAX - QUANTITY_MIN + 1 }, (_, index) => QUANTITY_MIN + index);
const money = (pula: number) => formatPula(toThebe(pula), 'thebe');

export interface PhotoDialogProps {
  photo: Photo | null;
  /** null until the school's products are known: nothing is offered while they load or failed. */
  products: readonly Product[] | null;
  /** The school's products could not be loaded; `onRetryProducts` asks again. */
  productsFailed?: boolean;
  onRetryProducts?: () => void;
  /** A staff session viewing the school: the preview is fetched with its token. */
  staff?: boolean;
  onClose: () => void;
  onAdd: (photo: Photo, selections: { product: Product; quantity: number }[]) => void;
  /** The photos the dialog can move between (the grid's order); without them it shows one photo. */
  photos?: readonly Photo[];
  onShow?: (photo: Photo) => void;
}

/** A swipe is a mostly sideways move of at least this many pixels. */
const SWIPE_PX = 50;

export function PhotoDialog({ photo, ...props }: PhotoDialogProps) {
  return (
    <Dialog open={photo !== null} onOpenChange={(open) => !open && props.onClose()} title="Select Products for Photo" size="lg" description={photo ? (props.staff ? photoLabel(photo) : familyPhotoLabel(photo)) : undefined}>
      {/* Keyed by photo so every opening starts with an empty selection. */}
      {photo ? <PhotoDialogBody key={photo.id} photo={photo} {...props} /> : null}
    </Dialog>
  );
}

function PhotoDialogBody({ photo, products: offered, productsFailed = false, onRetryProducts, staff = false, onClose, onAdd, photos = [], onShow }: PhotoDialogProps & { photo: Photo }) {
  const id = useId();
  const index = photos.findIndex((candidate) => candidate.id === photo.id);
  const previous = index > 0 ? photos[index - 1] : undefined;
  const next = index >= 0 && index < photos.length - 1 ? photos[index + 1] : undefined;
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const show = (target: Photo | undefined) => {
    if (target && onShow) onShow(target);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    // Arrows browse, except where they change a value (a quantity list).
    if (event.target instanceof HTMLSelectElement) return;
    if (event.key === 'ArrowLeft') show(previous);
    if (event.key === 'ArrowRight') show(next);
  };
  // The tap that opens the dialog paints the photo's frame, the heading and the buttons at once; the
  // product rows follow in a render of their own right after (docs/performance.md, "The first taps").
  const rowsShown = useDeferredValue(true, false);
  const products = offered ?? [];
  const [selected, setSelected] = useState<Record<string, number>>({});
  const [hiddenExamples, setHiddenExamples] = useState<Record<string, true>>({});
  const chosen = products.filter((product) => selected[product.id] !== undefined);
  const total = chosen.reduce((sum, product) => sum + toThebe(lineTotal(product.price, selected[product.id] ?? 1)), 0) / 100;

  const toggle = (product: Product, checked: boolean) =>
    setSelected((current) =>
      checked ? { ...current, [product.id]: QUANTITY_MIN } : Object.fromEntries(Object.entries(current).filter(([key]) => key !== product.id)),
    );

  const add = () => {
    onAdd(
      photo,
      chosen.map((product) => ({ product, quantity: selected[product.id] ?? QUANTITY_MIN })),
    );
    setSelected({});
  };

  return (
    <>
      <div className="dialog-layout" onKeyDown={onKeyDown}>
        <div>
          <div
            className="preview-frame"
            onTouchStart={(event) => {
              const touch = event.touches[0];
              touchStart.current = touch ? { x: touch.clientX, y: touch.clientY } : null;
            }}
            onTouchEnd={(event) => {
              const start = touchStart.current;
              const touch = event.changedTouches[0];
              touchStart.current = null;
              if (!start || !touch) return;
              const dx = touch.clientX - start.x;
              if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(touch.clientY - start.y)) show(dx < 0 ? next : previous);
            }}
          >
            <GalleryImage staff={staff} loading="eager" className="protected" src={previewUrl(photo.id)} alt={`Watermarked preview of ${staff ? photoLabel(photo) : familyPhotoLabel(photo)}`} draggable={false} decoding="async" />
          </div>
          {photos.length > 1 && index >= 0 ? (
            <div className="photo-nav">
              <Button variant="outline" size="sm" onClick={() => show(previous)} disabled={!previous} aria-label={PHOTO_DIALOG_MSG.previous}>
                ‹
              </Button>
              <span className="muted" aria-live="polite">
                {PHOTO_DIALOG_MSG.position(index + 1, photos.length)}
              </span>
              <Button variant="outline" size="sm" onClick={() => show(next)} disabled={!next} aria-label={PHOTO_DIALOG_MSG.next}>
                ›
              </Button>
            </div>
          ) : null}
        </div>
        <div>
          <h3>Choose products</h3>
          {offered === null ? (
            productsFailed ? (
              <div className="alert alert-danger stack-tight" role="alert">
                <span>{FIRST_VISIT_MSG.pricesFailed}</span>
                {onRetryProducts ? (
                  <Button variant="outline" size="sm" onClick={onRetryProducts}>
                    {FIRST_VISIT_MSG.tryAgain}
                  </Button>
                ) : null}
              </div>
            ) : (
              <Spinner label={FIRST_VISIT_MSG.pricesLoading} showLabel />
            )
          ) : products.length === 0 ? (
            <p className="muted">No products are available for this photo.</p>
          ) : null}
          {(rowsShown ? products : []).map((product) => {
            const quantity = selected[product.id];
            const checkboxId = `${id}-${product.id}`;
            return (
              <div className="product-row" key={product.id}>
                <Checkbox id={checkboxId} checked={quantity !== undefined} onCheckedChange={(checked) => toggle(product, checked === true)} />
                {product.exampleImage && !hiddenExamples[product.id] ? (
                  <img
                    className="product-example"
                    src={product.exampleImage}
                    alt=""
                    width={48}
                    height={48}
                    loading="lazy"
                    // A missing example image is simply left out.
                    onError={() => setHiddenExamples((current) => ({ ...current, [product.id]: true }))}
                  />
                ) : null}
                <label htmlFor={checkboxId} className="grow">
                  {/* Spaces between the parts, so name, description and price never run together ("13x18 Print P30.00"), read aloud too. */}
                  <strong>{product.name}</strong>{' '}
                  {/* A product without a description shows none (not a placeholder sentence). */}
                  {product.description && product.description !== DEFAULT_PRODUCT_DESCRIPTION ? (
                    <>
                      <span className="muted" style={{ display: 'block', fontSize: '0.875rem' }}>
                        {product.description}
                      </span>{' '}
                    </>
                  ) : null}
                  <span>{money(product.price)}</span>
                </label>
                {quantity !== undefined ? (
                  <div>
                    <label className="sr-only" htmlFor={`${checkboxId}-qty`}>
                      Quantity of {product.name}
                    </label>
                    <Select
                      id={`${checkboxId}-qty`}
                      className="qty-select"
                      value={quantity}
                      onChange={(event) => setSelected((current) => ({ ...current, [product.id]: Number(event.target.value) }))}
                    >
                      {QUANTITIES.map((value) => (
                        <option key={value} value={value}>
                          {value}
                        </option>
                      ))}
                    </Select>
                    <span className="muted" style={{ fontSize: '0.875rem' }}>
                      {money(lineTotal(product.price, quantity))}
                    </span>
                  </div>
                ) : null}
              </div>
            );
          })}
          <div className="total-row" aria-live="polite">
            <span>
              {chosen.length} {chosen.length === 1 ? 'product' : 'products'} selected
            </span>
            <span>Total: {money(total)}</span>
          </div>
        </div>
      </div>
      <div className="dialog-footer dialog-footer-sticky">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={add} disabled={chosen.length === 0}>
          Add to Cart
        </Button>
      </div>
    </>
  );
}
