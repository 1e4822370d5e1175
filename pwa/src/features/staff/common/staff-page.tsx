import type { ReactNode } from 'react';
import { useUploadRunner } from '../upload/upload-runner';
import '../../../styles/staff.css';

/**
 * The frame of every staff screen: the staff styles, and the upload queue runner, so a queue left
 * by a closed tab or a restart resumes on whichever staff screen opens first.
 */
export function StaffPage({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  useUploadRunner();
  return <div className={wide ? 'container page staff-page staff-wide' : 'container page staff-page'}>{children}</div>;
}
