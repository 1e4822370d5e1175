/**
 * The text of an SMS (docs/sms.md, "The SMS text"): the GSM 03.38 7-bit alphabet every phone
 * reads, 160 characters in one segment; one character outside it makes the whole message UCS-2,
 * 70 characters a segment. Names are written in their closest GSM letters so a message stays one
 * segment ("Ṱhabo" is sent as "Thabo").
 */

/** One segment in the GSM 7-bit alphabet. */
export const SMS_MAX_UNITS = 160;
/** A part of a longer GSM message: 7 septets go to the concatenation header. */
const GSM_PART_UNITS = 153;
/** One segment in UCS-2 (UTF-16 code units), and a part of a longer one. */
const UCS2_MAX_UNITS = 70;
const UCS2_PART_UNITS = 67;

/** The GSM 03.38 default alphabet (one septet each; ESC left out, it is never text). */
const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** The extension table: each is sent as ESC and a septet, so it counts two. */
const GSM_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

const isGsm = (char: string): boolean => BASIC.has(char) || EXTENSION.has(char);

/**
 * Characters with no GSM form whose accents-off form is no GSM letter either: the closest
 * letters or punctuation. Anything not here and not made GSM by dropping its marks becomes "?".
 */
const CLOSEST: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u2032': "'",
  '\u00B4': "'",
  '`': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u00AB': '"',
  '\u00BB': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2010': '-',
  '\u2011': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u00A0': ' ',
  '\u2009': ' ',
  '\u202F': ' ',
  '\t': ' ',
  '\u2022': '-',
  '\u00B7': '.',
  '\u00D7': 'x',
  ŋ: 'n',
  Ŋ: 'N',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  ł: 'l',
  Ł: 'L',
  ı: 'i',
  œ: 'oe',
  Œ: 'OE',
  þ: 'th',
  Þ: 'Th',
  ƒ: 'f',
  ɛ: 'e',
  Ɛ: 'E',
  ɔ: 'o',
  Ɔ: 'O',
  '\u00A9': '(c)',
  '\u00AE': '(R)',
  '\u2122': 'TM',
};

/**
 * The text in GSM 03.38 letters: each character kept when GSM has it; else its accents dropped
 * (Unicode NFD without the combining marks: "Ṱ" → "T", "š" → "s", "ç" → "c"); else the closest
 * letter or mark above; else "?".
 */
export function toGsm7(text: string): string {
  let out = '';
  for (const char of text) {
    if (isGsm(char)) {
      out += char;
      continue;
    }
    const mapped = CLOSEST[char];
    if (mapped !== undefined) {
      out += mapped;
      continue;
    }
    const bare = char.normalize('NFD').replace(/\p{M}/gu, '');
    if (bare !== '' && [...bare].every(isGsm)) {
      out += bare;
      continue;
    }
    const closest = [...bare].map((c) => CLOSEST[c] ?? (isGsm(c) ? c : null));
    out += bare !== '' && closest.every((c) => c !== null) ? closest.join('') : '?';
  }
  return out;
}

export interface SmsSegments {
  /** GSM-7 when every character is in the GSM alphabet, else UCS-2 for the whole message. */
  encoding: 'GSM-7' | 'UCS-2';
  /** Septets (extension characters count two) or UTF-16 code units. */
  units: number;
  /** The SMS it is sent as, each billed as one. */
  segments: number;
}

/** How the text goes out and how many SMS it costs (docs/sms.md, "The SMS text"). */
export function smsSegments(text: string): SmsSegments {
  let gsm = true;
  let septets = 0;
  for (const char of text) {
    if (BASIC.has(char)) septets += 1;
    else if (EXTENSION.has(char)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return { encoding: 'GSM-7', units: septets, segments: septets <= SMS_MAX_UNITS ? 1 : Math.ceil(septets / GSM_PART_UNITS) };
  const units = text.length;
  return { encoding: 'UCS-2', units, segments: units <= UCS2_MAX_UNITS ? 1 : Math.ceil(units / UCS2_PART_UNITS) };
}

/** Whether the text can go out in the GSM 7-bit alphabet (SMPP data_coding 0). */
export const isGsm7 = (text: string): boolean => smsSegments(text).encoding === 'GSM-7';
