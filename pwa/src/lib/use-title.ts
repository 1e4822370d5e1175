import { useEffect } from 'react';
import { businessName } from './brand';

/** Each screen names itself in the tab and for screen readers announcing navigation. */
export function useTitle(title: string | null): void {
  useEffect(() => {
    const name = businessName();
    document.title = title ? `${title} | ${name}` : name;
  }, [title]);
}
