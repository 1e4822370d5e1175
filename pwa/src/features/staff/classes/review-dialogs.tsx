/** The review sheet's two dialogs: "Move to another child" (a searchable list of the class) and a card photo shown large. */
import { useState } from 'react';
import { REVIEW_ACTIONS_MSG } from '@contract/same-names';
import { AuthedImage } from '../../../components/authed-image';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';

export interface ChildChoice {
  id: number;
  /** The name as the sheet shows it (with the number when two children share the name). */
  label: string;
  number: string | null;
}

const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();

/**
 * "Move to another child": the photo's label, a field that narrows the class by name or number,
 * and one button per child; a tap on a child is the move (the sheet's own move, so whatever it
 * asks first, it asks here too).
 */
export function useMoveToChildDialog() {
  const [photo, setPhoto] = useState<{ label: string; children: readonly ChildChoice[]; choose: (studentId: number) => void } | null>(null);
  const [query, setQuery] = useState('');
  const wanted = folded(query.trim());
  const shown = (photo?.children ?? []).filter((child) => wanted === '' || folded(child.label).includes(wanted) || (child.number !== null && folded(child.number).includes(wanted)));
  return {
    /** `choose` is the sheet's own move of this photo to the child tapped. */
    ask: (label: string, children: readonly ChildChoice[], choose: (studentId: number) => void) => {
      setQuery('');
      setPhoto({ label, children, choose });
    },
    dialog: (
      <Dialog
        open={photo !== null}
        onOpenChange={(open) => !open && setPhoto(null)}
        title={REVIEW_ACTIONS_MSG.moveToChildTitle(photo?.label ?? '')}
        description={REVIEW_ACTIONS_MSG.moveToChildHint}
      >
        <div className="stack">
          <Input type="search" aria-label={REVIEW_ACTIONS_MSG.findChild} placeholder={REVIEW_ACTIONS_MSG.findChild} value={query} onChange={(event) => setQuery(event.target.value)} />
          {shown.length === 0 ? <p className="muted">{REVIEW_ACTIONS_MSG.noChildFound}</p> : null}
          <ul className="move-child-list">
            {shown.map((child) => (
              <li key={child.id}>
                <Button
                  variant="outline"
                  block
                  onClick={() => {
                    if (!photo) return;
                    setPhoto(null);
                    photo.choose(child.id);
                  }}
                >
                  {child.label}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      </Dialog>
    ),
  };
}

/** A card photo shown large (the 1280 px preview), so the name and code printed on it can be read. */
export function useCardLarge() {
  const [card, setCard] = useState<{ photoId: number; originalName: string } | null>(null);
  return {
    show: setCard,
    dialog: (
      <Dialog open={card !== null} onOpenChange={(open) => !open && setCard(null)} title={REVIEW_ACTIONS_MSG.cardLargeTitle(card?.originalName ?? '')} description={REVIEW_ACTIONS_MSG.cardLargeHint} size="lg">
        {card ? <AuthedImage className="card-large" src={`/api/images/${card.photoId}/watermarked`} alt={REVIEW_ACTIONS_MSG.cardLargeTitle(card.originalName)} loading="eager" /> : null}
      </Dialog>
    ),
  };
}
