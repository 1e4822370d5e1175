import { CartLines } from '../../components/cart-lines';
import { Card, CardBody } from '../../components/ui/card';
import { dispatchCart, withQuantity } from '../../lib/cart';
import type { CartLine } from '../../lib/storage';

/** 'Selected Photos (n)': the cart under the photo grid; checkout is the header's cart button. */
export function SelectedPhotos({ lines, onRemove }: { lines: readonly CartLine[]; onRemove: (id: string) => void }) {
  const setQuantity = (id: string, quantity: number) => {
    const line = lines.find((candidate) => candidate.id === id);
    if (line) dispatchCart({ type: 'update', lines: [withQuantity(line, quantity)] });
  };
  if (lines.length === 0) return null;
  return (
    <Card style={{ marginTop: 'var(--space-6)' }}>
      <CardBody>
        <h2>Selected Photos ({lines.length})</h2>
        <CartLines lines={lines} onRemove={onRemove} onQuantity={setQuantity} />
        <p className="muted" style={{ marginTop: 'var(--space-3)', marginBottom: 0 }}>
          To check out, use the cart button at the top of the page.
        </p>
      </CardBody>
    </Card>
  );
}
