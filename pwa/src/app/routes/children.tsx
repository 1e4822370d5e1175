/**
 * A family's children (/children): every child unlocked on this device with their private code,
 * in any class or school, as a tab each. A tab shows the child's own photos and their class's
 * group photos; everything goes into the one cart (checkout makes one order per school). "Forget
 * this child on this device" removes the grant, the cached images and the child's cart lines.
 */
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isOrderingClosed } from '@contract/constants';
import type { GalleryPhoto as Photo } from '@contract/photos';
import type { UnlockedStudent } from '@contract/students';
import { PACKAGE_MSG, PWA_MSG, REVIEW_MSG } from '@contract/messages';
import { Button } from '../../components/ui/button';
import { Card, CardBody } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { PageSpinner } from '../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { toast } from '../../components/ui/toast';
import { CHILD_REMOVED_MSG } from '@contract/child-removed';
import { childrenKeys, forgetChildAccess, removedChildrenQuery, unlockedChildrenQuery } from '../../features/children/api';
import { StudentCodeForm } from '../../features/children/code-form';
import { galleryKeys, photosQuery, priceListsQuery } from '../../features/gallery/api';
import { ClosingBanner } from '../../features/gallery/closing-banner';
import { PhotoDialog } from '../../features/gallery/photo-dialog';
import { PhotoGrid } from '../../features/gallery/photo-grid';
import { offeredProducts, type Product } from '../../features/gallery/products';
import { cartLinesFor } from '../../features/gallery/cart-selection';
import { SelectedPhotos } from '../../features/gallery/selected-photos';
import { PackageCards } from '../../features/gallery/package-cards';
import { PackageDialog } from '../../features/gallery/package-dialog';
import { orderablePackages, packageCartLine, packagesFor, type OfferedPackage } from '../../features/gallery/packages';
import { useCopyProtection } from '../../features/gallery/use-copy-protection';
import { schoolBySlugQuery } from '../../features/schools/api';
import { ApiError, NetworkError, errorMessage } from '../../lib/api-client';
import { dispatchCart, readCart, useCart } from '../../lib/cart';
import { LOCAL_KEYS, writeJson } from '../../lib/storage';
import { addUnlockedChild, isRemoved, markChildrenRemoved, removeUnlockedChild, useUnlockedChildren } from '../../lib/unlocked-children';
import { purgeCachedImages } from '../../lib/image-cache';
import { refreshAfterGrantChange } from '../../lib/query-client';
import { useDropVanishedImages } from '../../features/gallery/use-drop-vanished-images';
import { useTitle } from '../../lib/use-title';
import { SubscribeOffer } from '../../features/outreach/subscribe-offer';

/** "Order before picture day" (docs/packages-and-coupons.md): its own chunk, loaded only for a child with no photo of their own online. */
const PrepaidOffer = lazy(() => import('../../features/gallery/prepaid-offer'));

const isAccessError = (err: unknown) => err instanceof ApiError && (err.status === 401 || err.status === 403);
/** A class still in draft is not there for families (404) until staff publish it. */
const isNotOnlineYet = (err: unknown) => err instanceof ApiError && err.status === 404;

/** The child's class is still a draft, or has no photo this family may see yet. */
function NotOnlineYet() {
  return (
    <p className="alert alert-info" role="status">
      {REVIEW_MSG.notOnlineYet}
    </p>
  );
}

export default function Children() {
  useTitle('My Children');
  const rootRef = useRef<HTMLDivElement>(null);
  useCopyProtection(rootRef);
  const children = useUnlockedChildren();
  const cart = useCart();
  const held = useQuery(unlockedChildrenQuery());
  // The signed grant outlives a cleared browser storage: children it still holds come back.
  useEffect(() => {
    for (const child of held.data ?? []) if (!children.some((known) => known.student.id === child.student.id)) addUnlockedChild(child);
  }, [held.data, children]);
  // A child erased at the school's request is marked on this device: the family is told, not asked for the code.
  const removed = useQuery(removedChildrenQuery());
  useEffect(() => {
    if (removed.data && removed.data.length > 0) markChildrenRemoved(removed.data);
  }, [removed.data]);
  const [params, setParams] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const wanted = Number(params.get('student'));
  const selected = children.find((child) => child.student.id === wanted) ?? children[0] ?? null;
  const select = (studentId: number) => setParams({ student: String(studentId) }, { replace: true });
  /** After a child is forgotten on this device: the next child, or the code form. */
  const showAnother = (forgotten: number) => {
    const next = children.find((other) => other.student.id !== forgotten);
    if (next) select(next.student.id);
    else setParams({}, { replace: true });
  };

  if (!selected) {
    return (
      <div className="container page page-narrow">
        <Card>
          <CardBody>
            <h1>Your Children's Photos</h1>
            <p className="muted">Enter the private code from your child's photo flyer. Each code opens only that child's photos and their class's group photos.</p>
            <StudentCodeForm onUnlocked={(result) => select(result.student.id)} />
          </CardBody>
        </Card>
      </div>
    );
  }

  return (
    <div className="container page stack" ref={rootRef}>
      <div className="row between">
        <div>
          <h1 style={{ marginBottom: 'var(--space-1)' }}>My Children</h1>
          <p className="muted" style={{ margin: 0 }}>
            Photos of each child, and their class's group photos. Add several children to one cart.
          </p>
        </div>
        <Button variant="outline" onClick={() => setAdding((open) => !open)} aria-expanded={adding}>
          Add Another Child
        </Button>
      </div>
      {adding ? (
        <Card>
          <CardBody>
            <h2>Add another child</h2>
            <StudentCodeForm
              submitLabel="Add Child"
              onUnlocked={(result) => {
                setAdding(false);
                select(result.student.id);
              }}
            />
          </CardBody>
        </Card>
      ) : null}
      <Tabs value={String(selected.student.id)} onValueChange={(value) => select(Number(value))}>
        <TabsList aria-label="Your children">
          {children.map((child) => (
            <TabsTrigger key={child.student.id} value={String(child.student.id)}>
              {child.student.name}
            </TabsTrigger>
          ))}
        </TabsList>
        {children.map((child) => (
          <TabsContent key={child.student.id} value={String(child.student.id)}>
            {isRemoved(child) ? (
              <RemovedChild child={child} onForgotten={() => showAnother(child.student.id)} />
            ) : (
              <ChildGallery child={child} others={children.filter((other) => other.student.id !== child.student.id)} onForgotten={() => showAnother(child.student.id)} />
            )}
          </TabsContent>
        ))}
      </Tabs>
      <SelectedPhotos lines={cart} onRemove={(id) => dispatchCart({ type: 'remove', id })} />
      {/* No e-mails are offered for an erased child: only while another child here can still be followed. */}
      {children.some((child) => !isRemoved(child)) ? <SubscribeOffer /> : null}
    </div>
  );
}

/**
 * A child erased at the school's request (docs/access.md, "What the family of an erased child
 * sees"): said plainly, with no code form (no code brings them back) and no e-mail offer; the
 * family may take the child off this device.
 */
function RemovedChild({ child, onForgotten }: { child: UnlockedStudent; onForgotten: () => void }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const name = child.student.name;
  const forget = async () => {
    setBusy(true);
    // The server's grant no longer holds the child; this only tidies the cookie, so a failure changes nothing.
    await forgetChildAccess(child.student.id).catch(() => undefined);
    for (const line of readCart()) if (line.studentName === name) dispatchCart({ type: 'remove', id: line.id });
    queryClient.setQueryData<UnlockedStudent[]>(childrenKeys.unlocked, (held) => held?.filter((other) => other.student.id !== child.student.id));
    removeUnlockedChild(child.student.id);
    setBusy(false);
    toast({ title: PWA_MSG.childForgottenTitle, description: PWA_MSG.childForgotten(name), variant: 'success' });
    onForgotten();
  };
  return (
    <Card>
      <CardBody>
        <h2>{name}</h2>
        <p className="alert alert-info" role="status">
          {CHILD_REMOVED_MSG.removed}
        </p>
        <p>{CHILD_REMOVED_MSG.noCode}</p>
        <Button variant="outline" onClick={() => void forget()} disabled={busy}>
          {CHILD_REMOVED_MSG.forget}
        </Button>
      </CardBody>
    </Card>
  );
}

function ChildGallery({ child, others, onForgotten }: { child: UnlockedStudent; others: UnlockedStudent[]; onForgotten: () => void }) {
  const queryClient = useQueryClient();
  const school = useQuery(schoolBySlugQuery(child.school.slug));
  const priceLists = useQuery(priceListsQuery(child.school.id));
  const photos = useQuery(photosQuery(child.album.id));
  useDropVanishedImages(child.album.id, photos.data);
  const [openPhoto, setOpenPhoto] = useState<Photo | null>(null);
  const [forgetting, setForgetting] = useState(false);
  const [busy, setBusy] = useState(false);
  const name = child.student.name;
  const closed = isOrderingClosed(school.data?.closingDate);
  // Nothing is offered until the school's own products are known: never the built-in ones meanwhile.
  const products = offeredProducts(priceLists.data, closed);
  const own = photos.data?.filter((photo) => photo.studentId === child.student.id) ?? [];
  const group = photos.data?.filter((photo) => photo.studentId === null) ?? [];
  const packages = orderablePackages(packagesFor(priceLists.data), closed);
  // Ordering before picture day ends at the closing date, digital packages too (the server's
  // PREPAID_CLOSED): nothing is offered before the school's closing date is known.
  const prepaidPackages = school.data && !closed ? packages : [];
  const [openPackage, setOpenPackage] = useState<OfferedPackage | null>(null);

  const rememberSchool = () => {
    writeJson(LOCAL_KEYS.currentSchool, { id: child.school.id, name: child.school.name });
    writeJson(LOCAL_KEYS.currentAlbum, { id: child.album.id, name: child.album.name });
  };

  const addToCart = (photo: Photo, selections: { product: Product; quantity: number }[]) => {
    rememberSchool();
    dispatchCart({ type: 'add', lines: cartLinesFor(photo, selections, child.school, { name }) });
    setOpenPhoto(null);
    toast({ title: PWA_MSG.addedToCartTitle, description: PWA_MSG.productsAdded(selections.length), variant: 'success' });
  };

  // A package is one child's (docs/packages-and-coupons.md, "Filling a package"): it is filled from
  // this child's own photos, or from the class's group photos when there are none of the child yet.
  const addPackage = (pkg: OfferedPackage, chosen: Photo[]) => {
    rememberSchool();
    dispatchCart({ type: 'add', lines: [packageCartLine(pkg, chosen, child.school, { name })] });
    setOpenPackage(null);
    toast({ title: PWA_MSG.addedToCartTitle, description: PACKAGE_MSG.added(pkg.name), variant: 'success' });
  };

  const forget = async () => {
    setBusy(true);
    try {
      await forgetChildAccess(child.student.id);
    } catch (err) {
      // Offline, the device forgets now and the signed grant lapses on its own within days.
      if (!(err instanceof NetworkError)) {
        setBusy(false);
        toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, PWA_MSG.forgetChildFailed), variant: 'destructive' });
        return;
      }
    }
    setBusy(false);
    const sharesClass = others.some((other) => other.album.id === child.album.id);
    const mine = new Set((photos.data ?? []).filter((photo) => photo.studentId === child.student.id || !sharesClass).map((photo) => photo.id));
    for (const line of readCart()) if (mine.has(line.photoId) || line.studentName === name) dispatchCart({ type: 'remove', id: line.id });
    await purgeCachedImages([...mine]);
    if (!sharesClass) queryClient.removeQueries({ queryKey: galleryKeys.photos(child.album.id) });
    // The server's list first, so the reconciliation above cannot bring the child back.
    queryClient.setQueryData<UnlockedStudent[]>(childrenKeys.unlocked, (held) => held?.filter((other) => other.student.id !== child.student.id));
    removeUnlockedChild(child.student.id);
    await refreshAfterGrantChange(queryClient);
    setForgetting(false);
    toast({ title: PWA_MSG.childForgottenTitle, description: PWA_MSG.childForgotten(name), variant: 'success' });
    onForgotten();
  };

  return (
    <div className="stack">
      <div className="row between">
        <div>
          <h2 style={{ marginBottom: 'var(--space-1)' }}>{name}</h2>
          <p className="muted" style={{ margin: 0 }}>
            {child.school.name} · {child.album.name}
          </p>
        </div>
        <Button variant="ghost" size="sm" onClick={() => setForgetting(true)}>
          Forget this child on this device
        </Button>
      </div>
      {closed ? <ClosingBanner /> : null}
      {photos.isError && isAccessError(photos.error) ? (
        <Card>
          <CardBody>
            <p className="alert alert-warn" role="status">
              This device no longer has access to {name}'s photos. Enter the code from the flyer again.
            </p>
            <StudentCodeForm onUnlocked={() => undefined} />
          </CardBody>
        </Card>
      ) : (photos.isError && isNotOnlineYet(photos.error)) || photos.data?.length === 0 ? (
        // Before picture day (no photo of the class online yet) the school's packages can be paid for now.
        prepaidPackages.length > 0 ? (
          <>
            <NotOnlineYet />
            <Suspense fallback={<PageSpinner />}>
              <PrepaidOffer child={child} packages={prepaidPackages} />
            </Suspense>
          </>
        ) : priceLists.isPending || school.isPending ? (
          <PageSpinner />
        ) : (
          <NotOnlineYet />
        )
      ) : photos.isError ? (
        <p className="alert alert-danger" role="alert">
          We could not load the photos. Check your connection and try again.
        </p>
      ) : !photos.data ? (
        <PageSpinner label="Loading photos..." />
      ) : (
        <>
          <PackageCards packages={packages} onChoose={setOpenPackage} />
          <section aria-label={`Photos of ${name}`} className="stack">
            <h3>Photos of {name}</h3>
            {own.length > 0 ? (
              <PhotoGrid photos={own} onOpen={setOpenPhoto} />
            ) : (
              <>
                <p className="muted">No photos of {name} yet.</p>
                {/* The class is online with group photos but none of this child (absent, or not yet
                    sorted): a package can still be paid now and its photos chosen once the child's
                    are released (docs/prepaid.md, "Ordering before picture day"). */}
                {prepaidPackages.length > 0 ? (
                  <Suspense fallback={<PageSpinner />}>
                    <PrepaidOffer child={child} packages={prepaidPackages} />
                  </Suspense>
                ) : null}
              </>
            )}
          </section>
          <section aria-label={`${child.album.name} group photos`} className="stack">
            <h3>Class group photos</h3>
            {group.length > 0 ? <PhotoGrid photos={group} onOpen={setOpenPhoto} /> : <p className="muted">No group photos in this class yet.</p>}
          </section>
        </>
      )}
      <PhotoDialog
        photo={openPhoto}
        products={products}
        productsFailed={priceLists.isError}
        onRetryProducts={() => void priceLists.refetch()}
        onClose={() => setOpenPhoto(null)}
        onAdd={addToCart}
        photos={[...own, ...group]}
        onShow={setOpenPhoto}
      />
      <PackageDialog pkg={openPackage} photos={own.length > 0 ? own : group} onClose={() => setOpenPackage(null)} onAdd={addPackage} />
      <ConfirmDialog
        open={forgetting}
        onOpenChange={setForgetting}
        title={`Forget ${name} on this device?`}
        description={`${name}'s photos disappear from this device and from your cart. You can add ${name} again with the code from the flyer.`}
        confirmLabel="Forget Child"
        busy={busy}
        onConfirm={() => void forget()}
      />
    </div>
  );
}
