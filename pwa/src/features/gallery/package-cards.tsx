/**
 * The price list's packages above the photos: what each holds, its price and "Save P X" against
 * the same products bought singly (docs/packages-and-coupons.md, "Packages"). Small on purpose: it
 * is part of the gallery's first paint; the dialog that fills a package is its own chunk.
 */
import type { ReactNode } from 'react';
import { PACKAGE_GALLERY_MSG } from '@contract/package-gallery-messages';
import { formatPula } from '@contract/money';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { toThebe } from '../../lib/cart';
import { contentsText, type OfferedPackage } from './packages';

/**
 * One package as a card of a list: its name and price, what it saves, its description, contents
 * and pose limit, then `children` (the button: choose photos here, order before picture day on a
 * child's tab, prepaid-offer.tsx).
 */
export function PackageCard({ pkg, children }: { pkg: OfferedPackage; children: ReactNode }) {
  return (
    <li className="card package-card" aria-label={pkg.name}>
      <div className="card-body stack-tight" style={{ marginBottom: 0 }}>
        <div className="row between">
          <strong>{pkg.name}</strong>
          <span>{formatPula(toThebe(pkg.price), 'thebe')}</span>
        </div>
        {pkg.savingsThebe > 0 ? (
          <span>
            <Badge tone="green">{PACKAGE_GALLERY_MSG.save(formatPula(pkg.savingsThebe, 'thebe'))}</Badge>
          </span>
        ) : null}
        {pkg.description ? <span className="muted">{pkg.description}</span> : null}
        <span>
          {PACKAGE_GALLERY_MSG.includes}: {contentsText(pkg.contents)}
        </span>
        {pkg.maxPoses !== null ? <span className="muted">{PACKAGE_GALLERY_MSG.posesLimit(pkg.maxPoses)}</span> : null}
        {children}
      </div>
    </li>
  );
}

export function PackageCards({ packages, onChoose, disabled = false }: { packages: readonly OfferedPackage[]; onChoose: (pkg: OfferedPackage) => void; disabled?: boolean }) {
  if (packages.length === 0) return null;
  return (
    <section aria-labelledby="packages-title" className="stack" style={{ marginBottom: 'var(--space-6)' }}>
      <div>
        <h2 id="packages-title" style={{ marginBottom: 'var(--space-1)' }}>
          {PACKAGE_GALLERY_MSG.packagesTitle}
        </h2>
        <p className="muted" style={{ margin: 0 }}>
          {PACKAGE_GALLERY_MSG.packagesIntro}
        </p>
      </div>
      <ul className="grid grid-3" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {packages.map((pkg) => (
          <PackageCard key={pkg.id} pkg={pkg}>
            <Button variant="outline" size="sm" onClick={() => onChoose(pkg)} disabled={disabled} aria-label={`${PACKAGE_GALLERY_MSG.choosePhotos}: ${pkg.name}`}>
              {PACKAGE_GALLERY_MSG.choosePhotos}
            </Button>
          </PackageCard>
        ))}
      </ul>
    </section>
  );
}
