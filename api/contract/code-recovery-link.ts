/**
 * The words the code form shows on the gallery's first screen before anyone asks for a code by SMS
 * (docs/sms.md, "Codes recovered by phone"). A file of their own: the first visit carries these two
 * strings, and the rest of code-recovery.ts comes with the small form when it is opened.
 */
export const CODE_RECOVERY_LINK = 'Lost your code? Get it by SMS';
/** Shown while the small form loads. */
export const CODE_RECOVERY_OPENING = 'Opening…';
