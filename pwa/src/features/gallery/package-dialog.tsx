/**
 * Filling a package (docs/packages-and-coupons.md, "Filling a package"): one photo for the whole
 * package, or one for each print and download in it (2 x 10x15 takes two), picked from thumbnails
 * of the photos this parent can see. The poses limit and "one child per package" are checked here
 * as the server checks them, so a parent learns it before the order, not from a refused one.
 */
import { useId, useState } from 'react';
import type { GalleryPhoto as Photo } from '@contract/photos';
import { PACKAGE_MSG } from '@contract/messages';
import { PACKAGE_PICKER_MSG } from '@contract/package-picker';
import { formatPula } from '@contract/money';
import { familyPhotoLabel, photoLabel } from '@contract/photo-names';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { Dialog } from '../../components/ui/dialog';
import { GalleryImage } from '../../components/authed-image';
import { toThebe } from '../../lib/cart';
import { smallThumbnailUrl } from './api';
import { contentsText, packagePhotosProblem, type OfferedPackage } from './packages';
import '../../styles/package-picker.css';

export interface PackageDialogProps {
  pkg: OfferedPackage | null;
  /** The photos the parent may fill it with (the open class, or one child's and their group photos). */
  photos: readonly Photo[];
  staff?: boolean;
  onClose: () => void;
  /** One photo for the whole package, or one per piece of its contents in order. */
  onAdd: (pkg: OfferedPackage, photos: Photo[]) => void;
  /**
   * Choosing the photos of a package already paid (docs/packages-and-coupons.md, "Ordering before
   * picture day"): the button's words, the photos chosen before (one for all, or one per piece), and
   * whether the choice is being saved.
   */
  submitLabel?: string;
  initialPhotos?: readonly number[];
  busy?: boolean;
  /**
   * A photo's small thumbnail address: by default the gallery's; a prepaid package chosen from its
   * order gives the addresses its photo list signed (docs/prepaid.md, "Choosing from any device").
   */
  thumbnailOf?: (photo: Photo) => string;
}

/**
 * The pieces a package's photos fill, in order (`packageSlots()` one per piece): a row of
 * 2 x 10x15 Print is "10x15 Print (1 of 2)" and "10x15 Print (2 of 2)".
 */
const packagePieceNames = (contents: OfferedPackage['contents']): string[] =>
  contents.flatMap((row) => Array.from({ length: row.quantity }, (_, index) => PACKAGE_PICKER_MSG.piece(row.name, index + 1, row.quantity)));

export function PackageDialog({ pkg, ...props }: PackageDialogProps) {
  return (
    <Dialog open={pkg !== null} onOpenChange={(open) => !open && props.onClose()} title={pkg ? PACKAGE_MSG.fillTitle(pkg.name) : ''} size="lg" description={pkg ? contentsText(pkg.contents) : undefined}>
      {pkg ? <PackageDialogBody key={pkg.id} pkg={pkg} {...props} /> : null}
    </Dialog>
  );
}

/** The photos chosen before, one per piece: one photo for all fills every piece; a choice per content row fills that row's pieces. */
function initialChoice(contents: OfferedPackage['contents'], pieces: number, photos: readonly number[] | undefined): (number | null)[] {
  if (!photos || photos.length === 0) return Array.from({ length: pieces }, () => null);
  if (photos.length === 1) return Array.from({ length: pieces }, () => photos[0] ?? null);
  if (photos.length === pieces) return [...photos];
  if (photos.length === contents.length) return contents.flatMap((row, index) => Array.from({ length: row.quantity }, () => photos[index] ?? null));
  return Array.from({ length: pieces }, () => null);
}

const galleryThumbnail = (photo: Photo) => smallThumbnailUrl(photo.id);

function PackageDialogBody({ pkg, photos, staff = false, onClose, onAdd, submitLabel, initialPhotos, busy = false, thumbnailOf = galleryThumbnail }: PackageDialogProps & { pkg: OfferedPackage }) {
  const id = useId();
  const pieces = packagePieceNames(pkg.contents);
  // A package of one piece, or of one pose, takes one photo: nothing else to choose.
  const singleOnly = pieces.length === 1 || pkg.maxPoses === 1;
  const [oneForAll, setOneForAll] = useState(singleOnly || initialPhotos?.length === 1);
  const [chosen, setChosen] = useState<(number | null)[]>(() => initialChoice(pkg.contents, pieces.length, initialPhotos));
  const [active, setActive] = useState(0);
  const byId = new Map(photos.map((photo) => [photo.id, photo]));
  const label = (photo: Photo) => {
    const name = staff ? photoLabel(photo) : familyPhotoLabel(photo);
    return photo.studentName ? `${name} · ${photo.studentName}` : name;
  };

  const slots = oneForAll ? [PACKAGE_MSG.photoForAll] : pieces;
  const current = Math.min(active, slots.length - 1);
  const picked = (oneForAll ? chosen.slice(0, 1) : chosen).map((photoId) => (photoId === null ? undefined : byId.get(photoId)));
  const filled = picked.every((photo) => photo !== undefined) ? picked.filter((photo): photo is Photo => photo !== undefined) : null;
  const problem = filled ? packagePhotosProblem(pkg, filled) : null;
  const severalChildren = new Set(photos.map((photo) => photo.studentId ?? null)).size > 1;

  const choose = (photoId: number) => {
    const next = chosen.map((value, at) => (at === current ? photoId : value));
    setChosen(next);
    // On to the next piece still without a photo, so a phone fills the package tap by tap.
    const empty = next.findIndex((value, at) => at < slots.length && at !== current && value === null);
    if (empty !== -1) setActive(empty);
  };
  // Every piece the same photo is one photo for the whole package.
  const toAdd = (photosChosen: Photo[]) => (new Set(photosChosen.map((photo) => photo.id)).size === 1 ? photosChosen.slice(0, 1) : photosChosen);

  return (
    <>
      <div className="stack">
        <div className="row between">
          <strong>{formatPula(toThebe(pkg.price), 'thebe')}</strong>
          {pkg.savingsThebe > 0 ? <Badge tone="green">{PACKAGE_MSG.save(formatPula(pkg.savingsThebe, 'thebe'))}</Badge> : null}
        </div>
        <ul className="package-rules muted">
          {pkg.maxPoses !== null ? <li>{PACKAGE_MSG.posesLimit(pkg.maxPoses)}</li> : null}
          {severalChildren ? <li>{PACKAGE_PICKER_MSG.ruleChild}</li> : null}
        </ul>
        {photos.length === 0 ? (
          <p className="alert alert-info" role="status">
            {PACKAGE_MSG.noPhotos}
          </p>
        ) : (
          <>
            {singleOnly ? null : (
              <div className="row">
                <Checkbox
                  id={`${id}-one-for-all`}
                  checked={oneForAll}
                  onCheckedChange={(checked) => {
                    setOneForAll(checked === true);
                    setActive(0);
                  }}
                />
                <label htmlFor={`${id}-one-for-all`}>{PACKAGE_MSG.onePhotoForAll}</label>
              </div>
            )}
            <p className="muted package-how">{oneForAll ? PACKAGE_PICKER_MSG.howToAll : PACKAGE_PICKER_MSG.howTo}</p>
            <ol className="package-slots" aria-label={PACKAGE_PICKER_MSG.slotsLabel}>
              {slots.map((slot, index) => {
                const photo = picked[index];
                return (
                  <li key={`${oneForAll ? 'all' : 'piece'}-${index}`}>
                    <button
                      type="button"
                      className="package-slot"
                      aria-pressed={index === current}
                      aria-label={PACKAGE_PICKER_MSG.slot(slot, photo ? label(photo) : null)}
                      onClick={() => setActive(index)}
                    >
                      {photo ? (
                        <GalleryImage staff={staff} className="protected package-slot-image" src={thumbnailOf(photo)} alt="" width={56} height={56} draggable={false} />
                      ) : (
                        <span className="package-slot-image package-slot-empty" aria-hidden="true" />
                      )}
                      <span className="package-slot-text">
                        <span>{slot}</span>
                        <span className="muted">{photo ? label(photo) : PACKAGE_PICKER_MSG.noPhotoYet}</span>
                      </span>
                    </button>
                  </li>
                );
              })}
            </ol>
            <div className="package-picker" role="radiogroup" aria-label={PACKAGE_PICKER_MSG.pickFor(slots[current] ?? '')}>
              {photos.map((photo) => {
                const selected = (oneForAll ? chosen[0] : chosen[current]) === photo.id;
                return (
                  <button
                    key={photo.id}
                    type="button"
                    role="radio"
                    aria-checked={selected}
                    aria-label={label(photo)}
                    className="package-pick"
                    data-photo-id={photo.id}
                    onClick={() => choose(photo.id)}
                  >
                    <GalleryImage staff={staff} className="protected" src={thumbnailOf(photo)} alt="" width={96} height={96} draggable={false} loading="lazy" />
                    <span className="package-pick-label">{label(photo)}</span>
                  </button>
                );
              })}
            </div>
            {problem ? (
              <p className="field-error" role="alert">
                {problem}
              </p>
            ) : null}
          </>
        )}
      </div>
      <div className="dialog-footer dialog-footer-sticky">
        <Button variant="outline" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button onClick={() => filled && problem === null && onAdd(pkg, toAdd(filled))} disabled={filled === null || problem !== null || busy}>
          {submitLabel ?? PACKAGE_MSG.addPackage}
        </Button>
      </div>
    </>
  );
}
