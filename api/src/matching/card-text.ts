import { isStudentCode, normaliseStudentCode } from '../../contract/student-codes';

/**
 * The student code a card's QR code carries: the flyer's `PUBLIC_URL/code/{CODE}` or the bare code
 * (a photographer's own cards). Any other QR code in a photo (a poster, a T-shirt) is not a card.
 */
export function cardCodeOf(text: string, publicUrl: string): string | null {
  const trimmed = text.trim();
  if (trimmed.length <= 12) {
    const bare = normaliseStudentCode(trimmed);
    return isStudentCode(bare) ? bare : null;
  }
  let url: URL;
  let base: URL;
  try {
    url = new URL(trimmed);
    base = new URL(publicUrl);
  } catch {
    return null;
  }
  if (url.origin !== base.origin) return null;
  const prefix = `${base.pathname.replace(/\/+$/, '')}/code/`.toLowerCase();
  if (!url.pathname.toLowerCase().startsWith(prefix)) return null;
  let rest: string;
  try {
    rest = decodeURIComponent(url.pathname.slice(prefix.length)).replace(/\/+$/, '');
  } catch {
    return null;
  }
  const code = normaliseStudentCode(rest);
  return isStudentCode(code) ? code : null;
}
