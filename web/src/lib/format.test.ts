import { formatCount, formatDate, formatRupees, istDay } from './format';

describe('formatRupees', () => {
  it('turns paise into rupees with Indian grouping', () => {
    expect(formatRupees(123456789)).toBe('₹12,34,567.89');
    expect(formatRupees(5000050)).toBe('₹50,000.50');
  });
  it('treats missing amounts as zero', () => {
    expect(formatRupees(null)).toBe('₹0.00');
    expect(formatRupees(undefined)).toBe('₹0.00');
  });
  it('can drop the paise for plan prices', () => {
    expect(formatRupees(1000000, { whole: true })).toBe('₹10,000');
  });
  it('keeps the sign of negative amounts', () => {
    expect(formatRupees(-15000)).toBe('-₹150.00');
  });
});

describe('formatCount', () => {
  it('groups digits the Indian way', () => {
    expect(formatCount(1234567)).toBe('12,34,567');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(undefined)).toBe('0');
  });
});

describe('formatDate', () => {
  it('shows the first 24 characters of the date string, on India\'s clock with the zone', () => {
    const d = new Date('2024-01-15T05:00:00Z');
    expect(formatDate(d)).toBe('Mon Jan 15 2024 10:30:00 IST');
    expect(formatDate(d.toISOString(), 15)).toBe('Mon Jan 15 2024 IST');
    expect(formatDate(d.toISOString(), 16)).toBe('Mon Jan 15 2024 IST');
  });
  it('puts a time just after midnight IST on the next day, whatever the browser zone', () => {
    expect(formatDate('2026-11-25T18:45:09Z')).toBe('Thu Nov 26 2026 00:15:09 IST');
    expect(formatDate('2026-11-25T18:29:59Z')).toBe('Wed Nov 25 2026 23:59:59 IST');
  });
  it('shows _ for no date and the raw value for a bad one', () => {
    expect(formatDate(null)).toBe('_');
    expect(formatDate('soon')).toBe('soon');
  });
});

describe('istDay', () => {
  it('is the IST calendar day', () => {
    expect(istDay(0, new Date('2026-11-25T18:29:59Z'))).toBe('2026-11-25');
    expect(istDay(0, new Date('2026-11-25T18:30:00Z'))).toBe('2026-11-26');
    expect(istDay(1, new Date('2026-12-31T19:00:00Z'))).toBe('2027-01-02');
  });
});
