/**
 * School gallery (/school/{slug}): the school password form without access, the class grid,
 * a class's photos, the product dialog and the 'Selected Photos' panel. The chosen class lives in
 * the URL (?class=id) so a reload, or an offline start, reopens it.
 */
import { lazy, startTransition, Suspense, useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isOrderingClosed } from '@contract/constants';
import type { AlbumSummary, SchoolBySlug } from '@contract/schools';
import type { GalleryPhoto as Photo } from '@contract/photos';
import { OFFLINE_MSG, PWA_MSG } from '@contract/pwa-messages';
import { PACKAGE_GALLERY_MSG } from '@contract/package-gallery-messages';
import { Button } from '../../components/ui/button';
import { Card, CardBody } from '../../components/ui/card';
import { PageSpinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/toast';
import { schoolBySlugQuery } from '../../features/schools/api';
import { ContactSchoolLink } from '../../features/schools/contact-school';
import { SchoolPasswordForm } from '../../features/schools/school-password-form';
import { albumsQuery, photosQuery, priceListsQuery } from '../../features/gallery/api';
import { ClassGrid } from '../../features/gallery/class-grid';
import { PhotoGrid } from '../../features/gallery/photo-grid';
import { SelectedPhotos } from '../../features/gallery/selected-photos';
import { ClosingBanner } from '../../features/gallery/closing-banner';
import { offeredProducts, type Product } from '../../features/gallery/products';
import { cartLinesFor } from '../../features/gallery/cart-selection';
import { PackageCards } from '../../features/gallery/package-cards';
import { orderablePackages, packageCartLine, packagesFor, type OfferedPackage } from '../../features/gallery/packages';
import { useCopyProtection } from '../../features/gallery/use-copy-protection';
import { useDropVanishedImages } from '../../features/gallery/use-drop-vanished-images';
import { ApiError, NetworkError } from '../../lib/api-client';
import { dispatchCart, useCart } from '../../lib/cart';
import { LOCAL_KEYS, writeJson } from '../../lib/storage';
import { addUnlockedClass, useUnlockedClasses } from '../../lib/unlocked-classes';
import { refreshAfterGrantChange } from '../../lib/query-client';
import { useSession } from '../../lib/session';
import { useOnline } from '../../lib/use-online';
import { useTitle } from '../../lib/use-title';
import { useUnlockedChildren } from '../../lib/unlocked-children';
import { StudentCodeForm } from '../../features/children/code-form';
import { paths } from '../../lib/paths';
import { Loaded } from '../../components/ui/loaded';
import { SubscribeOffer } from '../../features/outreach/subscribe-offer';

const isAccessError = (err: unknown) => err instanceof ApiError && (err.status === 401 || err.status === 403);

// The dialogs a tap opens are their own chunk: the class paints without waiting for their code,
// which the service worker has precached by the time a parent taps (and keeps for offline use).
const PhotoDialog = lazy(() => import('../../features/gallery/photo-dialog').then((module) => ({ default: module.PhotoDialog })));
const PackageDialog = lazy(() => import('../../features/gallery/package-dialog').then((module) => ({ default: module.PackageDialog })));
const ClassPasswordDialog = lazy(() => import('../../features/gallery/class-password-dialog').then((module) => ({ default: module.ClassPasswordDialog })));

export default function SchoolGallery() {
  const { slug = '' } = useParams();
  const school = useQuery(schoolBySlugQuery(slug));
  const { isStaff } = useSession();
  useTitle(school.data?.name ?? 'School gallery');

  // Data already shown (or restored from the persisted cache) wins over a failed refetch offline.
  // Staff viewing a student-codes school see every class, as in any other school.
  if (school.data?.accessMode === 'student_codes' && !isStaff) return <CodesSchool school={school.data} />;
  if (school.data) return school.data.unlocked ? <UnlockedGallery school={school.data} /> : <LockedSchool school={school.data} />;
  // Offline with nothing cached is not a missing school.
  const offline = school.fetchStatus === 'paused' || school.error instanceof NetworkError;
  if (school.isError && !offline) return <SchoolNotFound />;
  return (
    <div className="container page">
      <PageSpinner label="Loading school information..." />
      {offline ? <p className="center muted">You appear to be offline. The gallery opens when you are back online.</p> : null}
    </div>
  );
}

function SchoolNotFound() {
  return (
    <div className="container page page-narrow center">
      <h1>School Not Found</h1>
      <p className="muted">The school you're looking for doesn't exist or has been deactivated.</p>
    </div>
  );
}

function LockedSchool({ school }: { school: SchoolBySlug }) {
  return (
    <div className="container page page-narrow">
      <Card>
        <CardBody>
          <h1>{school.name}</h1>
          <p className="muted">Enter the school password to view its photos.</p>
          <SchoolPasswordForm school={school} targetPath={paths.school} />
        </CardBody>
      </Card>
    </div>
  );
}

/**
 * A school that shares photos through private student codes: each family sees only their own
 * children, in the family gallery, so this page asks for a code (or sends a family that has one
 * there).
 */
function CodesSchool({ school }: { school: SchoolBySlug }) {
  const navigate = useNavigate();
  const [child] = useUnlockedChildren().filter((held) => held.school.id === school.id);
  if (school.unlocked) return <Navigate to={child ? paths.child(child.student.id) : paths.children} replace />;
  return (
    <div className="container page page-narrow">
      <Card>
        <CardBody>
          <h1>{school.name}</h1>
          <p className="muted">This school shares photos with each family through a private student code. Enter the code from your child's flyer.</p>
          <StudentCodeForm onUnlocked={(result) => navigate(paths.child(result.student.id))} />
          <p className="muted center" style={{ marginTop: 'var(--space-3)', marginBottom: 0 }}>
            Lost the flyer? <ContactSchoolLink slug={school.slug} />
          </p>
        </CardBody>
      </Card>
    </div>
  );
}

function UnlockedGallery({ school }: { school: SchoolBySlug }) {
  const rootRef = useRef<HTMLDivElement>(null);
  useCopyProtection(rootRef);
  const [searchParams, setSearchParams] = useSearchParams();
  const unlocked = useUnlockedClasses();
  const cart = useCart();
  const queryClient = useQueryClient();
  const albums = useQuery(albumsQuery(school.id));
  const priceLists = useQuery(priceListsQuery(school.id));
  const online = useOnline();
  const [passwordAlbum, setPasswordAlbum] = useState<AlbumSummary | null>(null);
  const [openPhoto, setOpenPhoto] = useState<Photo | null>(null);
  const [openPackage, setOpenPackage] = useState<OfferedPackage | null>(null);
  // Mounted once first needed, then kept (so they close as they always did).
  const [dialogsUsed, setDialogsUsed] = useState(false);
  if (!dialogsUsed && (passwordAlbum !== null || openPackage !== null)) setDialogsUsed(true);
  // The photo dialog is mounted (closed) once the class shows and the phone is idle: its code is
  // loaded and run then, so the first tap on a thumbnail paints the dialog at once instead of
  // waiting for its chunk (docs/performance.md, "The first taps"). Opened before that, it mounts then.
  const [photoDialogReady, setPhotoDialogReady] = useState(false);
  if (!photoDialogReady && openPhoto !== null) setPhotoDialogReady(true);

  // Staff viewing a school pass every class password (the server lets their token through).
  const { isStaff } = useSession();
  const isOpen = (album: AlbumSummary) => isStaff || !album.hasPassword || unlocked.includes(album.id);

  const classParam = Number(searchParams.get('class'));
  const selected = albums.data?.find((album) => album.id === classParam) ?? null;
  const canView = selected !== null && isOpen(selected);
  const photos = useQuery({ ...photosQuery(selected?.id ?? 0), enabled: canView });
  useDropVanishedImages(selected?.id ?? 0, photos.data);
  const closed = isOrderingClosed(school.closingDate);
  // Nothing is offered until the school's own products are known: never the built-in ones meanwhile.
  const products = offeredProducts(priceLists.data, closed);
  const packages = orderablePackages(packagesFor(priceLists.data), closed);

  useEffect(() => {
    writeJson(LOCAL_KEYS.currentSchool, { id: school.id, name: school.name });
  }, [school.id, school.name]);

  const photosShown = photos.data !== undefined;
  useEffect(() => {
    if (!photosShown || photoDialogReady) return;
    const ready = () => startTransition(() => setPhotoDialogReady(true));
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(ready, 200);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(ready, { timeout: 2000 });
    return () => cancelIdleCallback(idle);
  }, [photosShown, photoDialogReady]);

  useEffect(() => {
    if (selected) writeJson(LOCAL_KEYS.currentAlbum, { id: selected.id, name: selected.name });
    // A protected class opened from the URL asks for its password first.
    if (selected && !canView) setPasswordAlbum(selected);
  }, [selected, canView]);

  // The grant can lapse (cookie expired): ask for the class password again.
  useEffect(() => {
    if (selected && photos.isError && isAccessError(photos.error) && selected.hasPassword) setPasswordAlbum(selected);
  }, [photos.isError, photos.error, selected]);

  if (albums.isError && isAccessError(albums.error)) return <LockedSchool school={school} />;
  if (selected && photos.isError && isAccessError(photos.error) && !selected.hasPassword) return <LockedSchool school={school} />;

  const openClass = (album: AlbumSummary | null) => {
    const next = new URLSearchParams(searchParams);
    if (album) next.set('class', String(album.id));
    else next.delete('class');
    setSearchParams(next);
  };

  const selectClass = (album: AlbumSummary) => {
    if (isOpen(album)) openClass(album);
    else setPasswordAlbum(album);
  };

  const addToCart = (photo: Photo, selections: { product: Product; quantity: number }[]) => {
    dispatchCart({ type: 'add', lines: cartLinesFor(photo, selections, school) });
    setOpenPhoto(null);
    toast({ title: PWA_MSG.addedToCartTitle, description: PWA_MSG.productsAdded(selections.length), variant: 'success' });
  };

  const addPackage = (pkg: OfferedPackage, chosen: Photo[]) => {
    dispatchCart({ type: 'add', lines: [packageCartLine(pkg, chosen, school)] });
    setOpenPackage(null);
    toast({ title: PWA_MSG.addedToCartTitle, description: PACKAGE_GALLERY_MSG.added(pkg.name), variant: 'success' });
  };

  return (
    <div className="container page" ref={rootRef}>
      <div className="row between" style={{ marginBottom: 'var(--space-4)' }}>
        <div>
          <h1 style={{ marginBottom: 'var(--space-1)' }}>{school.name}</h1>
          <p className="muted" style={{ margin: 0 }}>
            {canView && selected ? selected.name : 'Select a class to view photos'}
          </p>
        </div>
        {canView && selected ? (
          <Button variant="outline" onClick={() => openClass(null)}>
            Back to Classes
          </Button>
        ) : null}
      </div>
      {closed ? <ClosingBanner /> : null}
      {!online ? (
        <p className="alert alert-warn offline-banner" role="status">
          {OFFLINE_MSG.galleryOffline}
        </p>
      ) : null}

      {canView && selected ? (
        <Loaded query={photos} failed={PWA_MSG.photosFailed} loading="Loading photos...">
          {(data) => (
            <>
              {data.length > 0 ? <PackageCards packages={packages} onChoose={setOpenPackage} /> : null}
              <PhotoGrid photos={data} onOpen={setOpenPhoto} staff={isStaff} />
            </>
          )}
        </Loaded>
      ) : (
        <Loaded query={albums} failed={PWA_MSG.classesFailed} loading="Loading classes...">
          {(data) => <ClassGrid classes={data} unlocked={unlocked} onSelect={selectClass} />}
        </Loaded>
      )}

      <SelectedPhotos lines={cart} onRemove={(id) => dispatchCart({ type: 'remove', id })} />
      {/* Nothing to announce once ordering has closed; staff have no use for it. */}
      {isStaff || closed ? null : <SubscribeOffer />}

      {photoDialogReady ? (
        <Suspense fallback={null}>
          <PhotoDialog
            photo={openPhoto}
            products={products}
            productsFailed={priceLists.isError}
            onRetryProducts={() => void priceLists.refetch()}
            staff={isStaff}
            onClose={() => setOpenPhoto(null)}
            onAdd={addToCart}
            photos={photos.data}
            onShow={setOpenPhoto}
          />
        </Suspense>
      ) : null}
      {dialogsUsed ? (
        <Suspense fallback={null}>
          <PackageDialog pkg={openPackage} photos={photos.data ?? []} staff={isStaff} onClose={() => setOpenPackage(null)} onAdd={addPackage} />
          <ClassPasswordDialog
            album={passwordAlbum}
            onCancel={() => {
              setPasswordAlbum(null);
              if (selected && !canView) openClass(null);
            }}
            onUnlocked={(album) => {
              addUnlockedClass(album.id);
              setPasswordAlbum(null);
              openClass(album);
              void refreshAfterGrantChange(queryClient);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
