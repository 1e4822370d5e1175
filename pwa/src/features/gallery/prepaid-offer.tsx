/**
 * "Order before picture day" (docs/packages-and-coupons.md, "Ordering before picture day"): on a
 * child's tab while the child has no photos online, the school's packages (what each holds, its
 * price) instead of an empty gallery. Choosing one puts a package line without photos, for this
 * child, into the cart, kept and paid like any other line; the photos are chosen once they are
 * online. Loaded lazily by the children screen: no first visit carries it.
 */
import { PREPAID_SCREENS_MSG } from '@contract/prepaid-screens';
import { PACKAGE_MSG } from '@contract/package-messages';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast';
import { dispatchCart, lineTotal, useCart } from '../../lib/cart';
import { randomId } from '../../lib/random-id';
import { isPrepaidLine, LOCAL_KEYS, writeJson, type CartLine } from '../../lib/storage';
import { contentsText, packageProductType, type OfferedPackage } from './packages';
import { PackageCard } from './package-cards';

export interface PrepaidChild {
  student: { id: number; name: string };
  school: { id: number; name: string };
  album: { id: number; name: string };
}

/** The cart line of a package paid before picture day: the child's, with no photos yet. */
export function prepaidCartLine(pkg: OfferedPackage, child: PrepaidChild): CartLine {
  return {
    id: randomId(),
    photoId: 0,
    albumId: child.album.id,
    photoName: PREPAID_SCREENS_MSG.cartLine(child.student.name),
    photoPreview: '',
    productType: packageProductType(pkg.id),
    productName: pkg.name,
    productDescription: contentsText(pkg.contents),
    unitPrice: pkg.price,
    quantity: 1,
    totalPrice: lineTotal(pkg.price, 1),
    schoolId: child.school.id,
    schoolName: child.school.name,
    studentId: child.student.id,
    studentName: child.student.name,
    package: { packageId: pkg.id, contents: pkg.contents, photos: [] },
  };
}

/** The child's prepaid lines already in the cart, by package id. */
const inCartFor = (lines: readonly CartLine[], studentId: number): Set<number> =>
  new Set(lines.filter((line) => isPrepaidLine(line) && line.studentId === studentId).map((line) => line.package?.packageId ?? 0));

export default function PrepaidOffer({ child, packages }: { child: PrepaidChild; packages: readonly OfferedPackage[] }) {
  const cart = useCart();
  const inCart = inCartFor(cart, child.student.id);
  const name = child.student.name;

  const order = (pkg: OfferedPackage) => {
    writeJson(LOCAL_KEYS.currentSchool, { id: child.school.id, name: child.school.name });
    writeJson(LOCAL_KEYS.currentAlbum, { id: child.album.id, name: child.album.name });
    dispatchCart({ type: 'add', lines: [prepaidCartLine(pkg, child)] });
    toast({ title: PACKAGE_MSG.added(pkg.name), description: PREPAID_SCREENS_MSG.offerAdded(pkg.name, name), variant: 'success' });
  };

  return (
    <section aria-labelledby={`prepaid-${child.student.id}`} className="stack">
      <div>
        <h3 id={`prepaid-${child.student.id}`} style={{ marginBottom: 'var(--space-1)' }}>
          {PREPAID_SCREENS_MSG.offerTitle}
        </h3>
        <p className="muted" style={{ margin: 0 }}>
          {PREPAID_SCREENS_MSG.offerIntro(name)}
        </p>
      </div>
      <ul className="grid grid-3" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {packages.map((pkg) => (
          <PackageCard key={pkg.id} pkg={pkg}>
            {inCart.has(pkg.id) ? (
              <Button variant="outline" size="sm" disabled aria-label={`${PREPAID_SCREENS_MSG.inCart}: ${pkg.name}`}>
                {PREPAID_SCREENS_MSG.inCart}
              </Button>
            ) : (
              <Button size="sm" onClick={() => order(pkg)} aria-label={`${PREPAID_SCREENS_MSG.offerButton}: ${pkg.name}`}>
                {PREPAID_SCREENS_MSG.offerButton}
              </Button>
            )}
          </PackageCard>
        ))}
      </ul>
    </section>
  );
}
