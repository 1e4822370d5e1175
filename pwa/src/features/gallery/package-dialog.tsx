/**
 * Filling a package (docs/packages-and-coupons.md, "Filling a package"): one photo for the whole
 * package, or one for each item of its contents, chosen from the photos this parent can see. The
 * poses limit and "one child per package" are checked here as the server checks them, so a parent
 * learns it before the order, not from a refused one.
 */
import { useId, useState } from 'react';
import type { GalleryPhoto as Photo } from '@contract/photos';
import { PACKAGE_MSG } from '@contract/messages';
import { formatPula } from '@contract/money';
import { familyPhotoLabel, photoLabel } from '@contract/photo-names';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { Dialog } from '../../components/ui/dialog';
import { Select } from '../../components/ui/select';
import { GalleryImage } from '../../components/authed-image';
import { toThebe } from '../../lib/cart';
import { thumbnailUrl } from './api';
import { contentsText, packagePhotosProblem, type OfferedPackage } from './packages';

export interface PackageDialogProps {
  pkg: OfferedPackage | null;
  /** The photos the parent may fill it with (the open class, or one child's and their group photos). */
  photos: readonly Photo[];
  staff?: boolean;
  onClose: () => void;
  /** One photo, or one per content row in order. */
  onAdd: (pkg: OfferedPackage, photos: Photo[]) => void;
}

export function PackageDialog({ pkg, ...props }: PackageDialogProps) {
  return (
    <Dialog open={pkg !== null} onOpenChange={(open) => !open && props.onClose()} title={pkg ? PACKAGE_MSG.fillTitle(pkg.name) : ''} size="lg" description={pkg ? contentsText(pkg.contents) : undefined}>
      {pkg ? <PackageDialogBody key={pkg.id} pkg={pkg} {...props} /> : null}
    </Dialog>
  );
}

function PackageDialogBody({ pkg, photos, staff = false, onClose, onAdd }: PackageDialogProps & { pkg: OfferedPackage }) {
  const id = useId();
  // A package of one item, or of one pose, takes one photo: nothing else to choose.
  const singleOnly = pkg.contents.length === 1 || pkg.maxPoses === 1;
  const [oneForAll, setOneForAll] = useState(singleOnly);
  const [chosen, setChosen] = useState<(number | null)[]>(() => pkg.contents.map(() => null));
  const byId = new Map(photos.map((photo) => [photo.id, photo]));
  const label = (photo: Photo) => {
    const name = staff ? photoLabel(photo) : familyPhotoLabel(photo);
    return photo.studentName ? `${name} · ${photo.studentName}` : name;
  };

  const rows = oneForAll ? [{ key: 'all', text: PACKAGE_MSG.photoForAll }] : pkg.contents.map((row, index) => ({ key: String(index), text: PACKAGE_MSG.photoFor(PACKAGE_MSG.contentsItem(row.quantity, row.name)) }));
  const picked = (oneForAll ? chosen.slice(0, 1) : chosen).map((photoId) => (photoId === null ? undefined : byId.get(photoId)));
  const filled = picked.every((photo) => photo !== undefined) ? picked.filter((photo): photo is Photo => photo !== undefined) : null;
  const problem = filled ? packagePhotosProblem(pkg, filled) : null;

  const choose = (index: number, photoId: number | null) => setChosen((current) => current.map((value, at) => (at === index ? photoId : value)));

  return (
    <>
      <div className="stack">
        <div className="row between">
          <strong>{formatPula(toThebe(pkg.price), 'thebe')}</strong>
          {pkg.savingsThebe > 0 ? <Badge tone="green">{PACKAGE_MSG.save(formatPula(pkg.savingsThebe, 'thebe'))}</Badge> : null}
        </div>
        {pkg.maxPoses !== null ? <p className="muted" style={{ margin: 0 }}>{PACKAGE_MSG.posesLimit(pkg.maxPoses)}</p> : null}
        {photos.length === 0 ? (
          <p className="alert alert-info" role="status">
            {PACKAGE_MSG.noPhotos}
          </p>
        ) : (
          <>
            {singleOnly ? null : (
              <div className="row">
                <Checkbox id={`${id}-one-for-all`} checked={oneForAll} onCheckedChange={(checked) => setOneForAll(checked === true)} />
                <label htmlFor={`${id}-one-for-all`}>{PACKAGE_MSG.onePhotoForAll}</label>
              </div>
            )}
            {rows.map((row, index) => {
              const photo = picked[index];
              return (
                <div className="product-row" key={row.key}>
                  <label htmlFor={`${id}-${row.key}`} className="grow">
                    {row.text}
                  </label>
                  <Select id={`${id}-${row.key}`} value={chosen[index] ?? ''} onChange={(event) => choose(index, event.target.value === '' ? null : Number(event.target.value))}>
                    <option value="">{PACKAGE_MSG.choosePhoto}</option>
                    {photos.map((option) => (
                      <option key={option.id} value={option.id}>
                        {label(option)}
                      </option>
                    ))}
                  </Select>
                  {photo ? (
                    <GalleryImage staff={staff} className="protected product-example" src={thumbnailUrl(photo.id)} alt={label(photo)} width={48} height={48} draggable={false} loading="lazy" />
                  ) : null}
                </div>
              );
            })}
            {problem ? (
              <p className="field-error" role="alert">
                {problem}
              </p>
            ) : null}
          </>
        )}
      </div>
      <div className="dialog-footer dialog-footer-sticky">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => filled && problem === null && onAdd(pkg, filled)} disabled={filled === null || problem !== null}>
          {PACKAGE_MSG.addPackage}
        </Button>
      </div>
    </>
  );
}
