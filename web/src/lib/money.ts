// Rupees typed by a person <-> integer paise sent to the API. Done on the digits, never
// through floating point, so "0.29" is 29 paise and not 28.999...
import { z } from 'zod';

const RUPEES = /^(\d*)(?:\.(\d*))?$/;

/** "1,250.5" -> 125050; null for anything that is not a non-negative amount with at most 2 decimals. */
export function rupeesToPaise(text: string): number | null {
  const s = text.trim().replace(/,/g, '');
  const m = RUPEES.exec(s);
  if (!m || !/\d/.test(s)) return null;
  const [, whole = '', frac = ''] = m;
  if (frac.length > 2) return null;
  const paise = Number(whole || '0') * 100 + Number(frac.padEnd(2, '0'));
  return Number.isSafeInteger(paise) ? paise : null;
}

/** 125050 -> "1250.50", 120000 -> "1200": the value an input starts with. */
export function paiseToRupees(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const a = Math.abs(Math.trunc(paise));
  const rupees = Math.floor(a / 100);
  const rest = a % 100;
  return rest ? `${sign}${rupees}.${String(rest).padStart(2, '0')}` : `${sign}${rupees}`;
}

export type RupeeMessages = {
  required: string;
  number: string;
  negative: string;
  /** When set, zero is refused with this text (credits and debits). */
  positive?: string;
  decimals?: string;
  /** When set, only whole rupees are accepted and a decimal is refused with this text. */
  whole?: string;
  /** When set, more than `paise` is refused with `message`. */
  max?: { paise: number; message: string };
  /** An amount too big to be one (beyond 2^53 paise). */
  tooLarge?: string;
};

/**
 * A text input holding rupees, parsed to integer paise. The checks run in the order the
 * spec lists them: required, a number, not negative.
 */
export function rupeeField(m: RupeeMessages) {
  return z.string().transform((value, ctx) => {
    const s = value.trim().replace(/,/g, '');
    const fail = (message: string) => {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message });
      return z.NEVER;
    };
    if (s === '') return fail(m.required);
    const n = Number(s);
    if (!Number.isFinite(n) || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(s)) return fail(m.number);
    if (n < 0) return fail(m.negative);
    const paise = rupeesToPaise(s.replace(/^\+/, ''));
    if (paise === null) {
      // Too many decimals, or a number of digits no amount has.
      const decimals = (s.split('.')[1] ?? '').length;
      return fail(decimals > 2 ? (m.decimals ?? 'Enter at most 2 decimal places') : (m.tooLarge ?? m.max?.message ?? 'Amount is too large'));
    }
    if (m.whole && paise % 100 !== 0) return fail(m.whole);
    if (m.positive && paise === 0) return fail(m.positive);
    if (m.max && paise > m.max.paise) return fail(m.max.message);
    return paise;
  });
}

/**
 * A key for one intended money movement. The same key sent twice moves money once, so a
 * form keeps its key until the movement succeeds. randomUUID needs a secure context; the
 * fallback builds the same v4 shape from getRandomValues.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
