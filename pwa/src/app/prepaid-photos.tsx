/**
 * "Choose your photos" on My Orders and the order's confirmation (docs/packages-and-coupons.md,
 * "Ordering before picture day"): a package paid before picture day is filled, once the child's
 * photos are online, in the gallery's package dialog (the same rules: one photo for all or one per
 * print and download, the poses limit) from that child's own photos, and saved with
 * `PUT /api/orders/{id}/packages/{packageLineId}/photos`. The family may change its choice until
 * the closing date. The photos come from the order itself (docs/prepaid.md, "Choosing from any
 * device"), so the order's owner chooses on any device: the placing browser, one that opened the
 * order link of a message, the signed-in customer, none of them needing the child's code here.
 * Loaded lazily, only for an order with such a package.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDate } from '@contract/format';
import type { Order, OrderPackage } from '@contract/orders';
import type { PrepaidPhoto } from '@contract/prepaid-photos';
import { PREPAID_SCREENS_MSG } from '@contract/prepaid-screens';
import { Button } from '../components/ui/button';
import { toast } from '../components/ui/toast';
import { priceListsQuery } from '../features/gallery/api';
import { PackageDialog } from '../features/gallery/package-dialog';
import { packagesFor } from '../features/gallery/packages';
import { orderKeys } from '../features/orders/api';
import { choosePackagePhotos, chosenPhotoIds, prepaidPhotosQuery } from '../features/orders/prepaid';
import { errorMessage } from '../lib/api-client';

const small = { display: 'block', fontSize: '0.875rem', margin: 'var(--space-2) 0 0' } as const;

export default function PrepaidPhotos({ order, pkg }: { order: Order; pkg: OrderPackage }) {
  const queryClient = useQueryClient();
  const photos = useQuery(prepaidPhotosQuery(order.id, pkg.id));
  const priceLists = useQuery(priceListsQuery(order.school.id));
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  // The child's released photos only: the server lists no other (a group photo, another child's, one withheld).
  const own: PrepaidPhoto[] = photos.data?.photos ?? [];
  const offered = packagesFor(priceLists.data).find((candidate) => candidate.id === pkg.packageId) ?? null;
  const due = pkg.posesDue ? <span style={small}>{PREPAID_SCREENS_MSG.chooseUntil(formatDate(`${pkg.posesDue}T12:00:00Z`, 'long'))}</span> : null;

  if (photos.isPending) return null;
  if (photos.isError) {
    return (
      <span className="muted" style={small}>
        {errorMessage(photos.error, PREPAID_SCREENS_MSG.photosFailed)}
      </span>
    );
  }
  if (own.length === 0) {
    return (
      <span className="muted" style={small}>
        {PREPAID_SCREENS_MSG.waitingForPhotos}
      </span>
    );
  }
  if (priceLists.isSuccess && !offered) {
    return (
      <span className="muted" style={small}>
        {PREPAID_SCREENS_MSG.packageGone}
      </span>
    );
  }

  const save = async (chosen: readonly { id: number }[]) => {
    setBusy(true);
    try {
      const updated = await choosePackagePhotos(order.id, pkg.id, chosen.map((photo) => photo.id));
      queryClient.setQueryData(orderKeys.one(order.id), updated);
      await queryClient.invalidateQueries({ queryKey: orderKeys.mine });
      setOpen(false);
      toast({ title: PREPAID_SCREENS_MSG.saved, description: PREPAID_SCREENS_MSG.savedText(pkg.name), variant: 'success' });
    } catch (err) {
      toast({ title: PREPAID_SCREENS_MSG.saveFailed, description: errorMessage(err, PREPAID_SCREENS_MSG.saveFailed), variant: 'destructive' });
    }
    setBusy(false);
  };

  const label = pkg.photosChosen ? PREPAID_SCREENS_MSG.changeAction : PREPAID_SCREENS_MSG.chooseAction;
  return (
    <>
      {due}
      <span style={small}>
        <Button size="sm" variant={pkg.photosChosen ? 'outline' : 'primary'} disabled={!offered} onClick={() => setOpen(true)} aria-label={`${label}: ${pkg.name}`}>
          {label}
        </Button>
      </span>
      <PackageDialog
        pkg={open ? offered : null}
        photos={own}
        onClose={() => setOpen(false)}
        onAdd={(_, chosen) => void save(chosen)}
        submitLabel={busy ? PREPAID_SCREENS_MSG.saving : PREPAID_SCREENS_MSG.saveChoice}
        initialPhotos={chosenPhotoIds(order, pkg)}
        busy={busy}
        thumbnailOf={(photo) => own.find((candidate) => candidate.id === photo.id)?.smallThumbnailUrl ?? ''}
      />
    </>
  );
}
