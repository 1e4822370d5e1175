import { useState, type ReactNode } from 'react';
import { SOLD_PHOTO_MSG } from '@contract/withdrawn-photos';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ApiError } from '../../../lib/api-client';

interface Asked {
  message: string;
  /** What staff go on with: a move to another child, the tray (or a card), do not publish, back to draft. */
  kind: 'move' | 'tray' | 'hide' | 'draft';
  resend: () => void;
}

const CONFIRM_LABEL: Record<Asked['kind'], string> = {
  move: SOLD_PHOTO_MSG.confirmMove,
  tray: SOLD_PHOTO_MSG.confirmTray,
  hide: SOLD_PHOTO_MSG.confirmHide,
  draft: SOLD_PHOTO_MSG.confirmDraft,
};

/**
 * Moving or withholding a photo a family paid for asks first (docs/access.md, "Moving a sold
 * photo"), whether one photo is moved or a whole child (do not publish) or class (back to draft) is
 * withheld: the API refuses with 409 `PHOTO_SOLD` and says what will happen (the family sees it
 * withdrawn, staff refund it, and which print batch already has it); this shows that and, when staff
 * go on, sends the same request again with `confirm: true`.
 */
export function useSoldPhotoConfirm(): { intercept: (err: unknown, kind: Asked['kind'], resend: () => void) => boolean; dialog: ReactNode } {
  const [asked, setAsked] = useState<Asked | null>(null);
  const intercept = (err: unknown, kind: Asked['kind'], resend: () => void): boolean => {
    if (!(err instanceof ApiError) || err.code !== 'PHOTO_SOLD') return false;
    setAsked({ message: err.serverMessage ?? err.message, kind, resend });
    return true;
  };
  const dialog = (
    <ConfirmDialog
      open={asked !== null}
      title={SOLD_PHOTO_MSG.dialogTitle}
      description={asked?.message ?? ''}
      confirmLabel={CONFIRM_LABEL[asked?.kind ?? 'move']}
      cancelLabel={SOLD_PHOTO_MSG.keep}
      onConfirm={() => {
        const resend = asked?.resend;
        setAsked(null);
        resend?.();
      }}
      onOpenChange={(open) => {
        if (!open) setAsked(null);
      }}
    />
  );
  return { intercept, dialog };
}
