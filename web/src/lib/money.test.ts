import { z } from 'zod';
import { newIdempotencyKey, paiseToRupees, rupeeField, rupeesToPaise } from './money';

describe('rupeesToPaise', () => {
  it('converts rupees to whole paise without floating-point error', () => {
    expect(rupeesToPaise('100')).toBe(10000);
    expect(rupeesToPaise('0.29')).toBe(29);
    expect(rupeesToPaise('1.1')).toBe(110);
    expect(rupeesToPaise('.5')).toBe(50);
    expect(rupeesToPaise('12,34,567.89')).toBe(123456789);
    expect(rupeesToPaise(' 7 ')).toBe(700);
  });
  it('refuses negatives, text, and more than two decimals', () => {
    expect(rupeesToPaise('-1')).toBeNull();
    expect(rupeesToPaise('abc')).toBeNull();
    expect(rupeesToPaise('1.234')).toBeNull();
    expect(rupeesToPaise('')).toBeNull();
    expect(rupeesToPaise('.')).toBeNull();
  });
});

describe('paiseToRupees', () => {
  it('gives the text an input starts with', () => {
    expect(paiseToRupees(125050)).toBe('1250.50');
    expect(paiseToRupees(120000)).toBe('1200');
    expect(paiseToRupees(5)).toBe('0.05');
    expect(paiseToRupees(0)).toBe('0');
  });
  it('round-trips with rupeesToPaise', () => {
    for (const p of [0, 1, 99, 100, 101, 123456789]) expect(rupeesToPaise(paiseToRupees(p))).toBe(p);
  });
});

describe('rupeeField', () => {
  const schema = z.object({
    price: rupeeField({ required: 'Price is required', number: 'Price must be a number', negative: 'Price cannot be negative' }),
  });
  const msg = (price: string) => {
    const r = schema.safeParse({ price });
    return r.success ? r.data.price : r.error.issues[0].message;
  };
  it('checks required, number and negative in that order', () => {
    expect(msg('')).toBe('Price is required');
    expect(msg('  ')).toBe('Price is required');
    expect(msg('ten')).toBe('Price must be a number');
    expect(msg('1e3')).toBe('Price must be a number');
    expect(msg('-5')).toBe('Price cannot be negative');
    expect(msg('12.5')).toBe(1250);
    expect(msg('0')).toBe(0);
  });
  it('can refuse zero for credits and debits', () => {
    const amount = rupeeField({ required: 'r', number: 'n', negative: 'neg', positive: 'Amount must be greater than zero' });
    const r = amount.safeParse('0');
    expect(r.success).toBe(false);
    expect(amount.parse('0.01')).toBe(1);
  });
});

describe('newIdempotencyKey', () => {
  it('makes a new v4 UUID each time', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});
