import { useEffect } from 'react';
import { BRAND_NAME } from './brand';

/** Each screen names itself in the tab and for screen readers announcing navigation. */
export function useTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} | ${BRAND_NAME}` : BRAND_NAME;
  }, [title]);
}
