/**
 * The header's side drawer on small screens: it repeats the header's links.
 * Its own chunk: the dialog machinery (focus trap, scroll lock, portal) is downloaded when a
 * parent first opens the menu, not with every first page.
 */
import type { ReactNode } from 'react';
import * as DialogPrimitive from '@radix-ui/react-dialog';

export default function MobileDrawer({ open, onOpenChange, children }: { open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode }) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="dialog-overlay" />
        <DialogPrimitive.Content className="drawer" aria-describedby={undefined}>
          <DialogPrimitive.Title className="sr-only">Menu</DialogPrimitive.Title>
          {children}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
