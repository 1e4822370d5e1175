import { useEffect, type RefObject } from 'react';

/**
 * Copy protection on the gallery: right-click and drag on images are blocked, and
 * save (Ctrl/Cmd+S), F12 and Ctrl/Cmd+Shift+I are suppressed while the gallery is open. It deters
 * casual copying only; the real protection is the server-side watermark.
 */
export function useCopyProtection(root: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const key = event.key.toLowerCase();
      const mod = event.ctrlKey || event.metaKey;
      if (event.key === 'F12' || (mod && key === 's') || (mod && event.shiftKey && key === 'i')) event.preventDefault();
    };
    const onImageEvent = (event: Event) => {
      if (event.target instanceof HTMLImageElement) event.preventDefault();
    };
    const element = root.current;
    window.addEventListener('keydown', onKeyDown);
    // Dialogs render in a portal outside the gallery, so the document is watched for images.
    document.addEventListener('contextmenu', onImageEvent);
    document.addEventListener('dragstart', onImageEvent);
    element?.classList.add('protected-media');
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('contextmenu', onImageEvent);
      document.removeEventListener('dragstart', onImageEvent);
      element?.classList.remove('protected-media');
    };
  }, [root]);
}
