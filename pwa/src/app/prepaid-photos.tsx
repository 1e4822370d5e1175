/**
 * "Choose your photos" on My Orders and the order's confirmation (docs/packages-and-coupons.md,
 * "Ordering before picture day"): a package paid before picture day is filled, once the child's
 * photos are online, in the gallery's package dialog (the same rules: one photo for all or one per
 * print and download, the poses limit) from that child's own photos, and saved with
 * `PUT /api/orders/{id}/packages/{packageLineId}/photos`. The family may change its choice until
 * the closing date. The photos are those this device may see: the child held by code here.
 * Loaded lazily, only for an order with such a package.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDate } from '@contract/format';
import type { Order, OrderPackage } from '@contract/orders';
import type { GalleryPhoto as Photo } from '@contract/photos';
import { PREPAID_SCREENS_MSG } from '@contract/prepaid-screens';
import { Button } from '../components/ui/button';
import { toast } from '../components/ui/toast';
import { photosQuery, priceListsQuery } from '../features/gallery/api';
import { PackageDialog } from '../features/gallery/package-dialog';
import { packagesFor } from '../features/gallery/packages';
import { orderKeys } from '../features/orders/api';
import { choosePackagePhotos, chosenPhotoIds } from '../features/orders/prepaid';
import { ApiError, errorMessage } from '../lib/api-client';
import { paths } from '../lib/paths';
import { useUnlockedChildren } from '../lib/unlocked-children';

const small = { display: 'block', fontSize: '0.875rem', margin: 'var(--space-2) 0 0' } as const;

/** This device does not hold the child by code (or its grant lapsed): the photos are seen through the code. */
function NeedsCode({ child }: { child: string }) {
  return (
    <span className="muted" style={small}>
      {PREPAID_SCREENS_MSG.needsCode(child)} <Link to={paths.children}>{PREPAID_SCREENS_MSG.openChild}</Link>
    </span>
  );
}

export default function PrepaidPhotos({ order, pkg }: { order: Order; pkg: OrderPackage }) {
  const child = useUnlockedChildren().find((held) => held.student.id === pkg.studentId);
  if (!child) return <NeedsCode child={pkg.studentName} />;
  return <Chooser order={order} pkg={pkg} albumId={child.album.id} />;
}

function Chooser({ order, pkg, albumId }: { order: Order; pkg: OrderPackage; albumId: number }) {
  const queryClient = useQueryClient();
  const photos = useQuery(photosQuery(albumId));
  const priceLists = useQuery(priceListsQuery(order.school.id));
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  // Only the child's own photos online: a package is one child's (a class still in draft answers 404).
  const own: Photo[] = photos.data?.filter((photo) => photo.studentId === pkg.studentId) ?? [];
  const offered = packagesFor(priceLists.data).find((candidate) => candidate.id === pkg.packageId) ?? null;
  const due = pkg.posesDue ? <span style={small}>{PREPAID_SCREENS_MSG.chooseUntil(formatDate(`${pkg.posesDue}T12:00:00Z`, 'long'))}</span> : null;

  if (photos.isPending && !photos.isError) return null;
  const status = photos.error instanceof ApiError ? photos.error.status : null;
  if (status === 401 || status === 403) return <NeedsCode child={pkg.studentName} />;
  if (photos.isError && status !== 404) {
    return (
      <span className="muted" style={small}>
        {PREPAID_SCREENS_MSG.photosFailed}
      </span>
    );
  }
  // A class still in draft answers 404: nothing of the child is online yet.
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

  const save = async (chosen: Photo[]) => {
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
      />
    </>
  );
}
