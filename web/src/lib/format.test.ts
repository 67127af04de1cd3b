import { formatCount, formatDate, formatRupees } from './format';

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
  it('shows the first 24 characters of the date string', () => {
    const d = new Date(2024, 0, 15, 10, 30, 0);
    expect(formatDate(d)).toBe('Mon Jan 15 2024 10:30:00');
    expect(formatDate(d.toISOString(), 15)).toBe('Mon Jan 15 2024');
  });
  it('shows _ for no date and the raw value for a bad one', () => {
    expect(formatDate(null)).toBe('_');
    expect(formatDate('soon')).toBe('soon');
  });
});
