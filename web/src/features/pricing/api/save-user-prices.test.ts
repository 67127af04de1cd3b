import { changedPrices } from './save-user-prices';

const rows = [
  { service: 'pan', user_amount_paise: 300 },
  { service: 'gst', user_amount_paise: 500 },
  { service: 'bank', user_amount_paise: 1000 },
  { service: 'dl', user_amount_paise: 0 },
];

describe('changedPrices', () => {
  it('sends only rows whose field holds a different price, in paise', () => {
    const r = changedPrices(rows, { pan: '3.50', gst: '5', bank: '', dl: '0' });
    expect(r.errors).toEqual({});
    expect(r.changes).toEqual([{ service: 'pan', price_paise: 350 }]);
  });
  it("leaves out untouched rows (shown as '-') and blank ones", () => {
    expect(changedPrices(rows, {}).changes).toEqual([]);
    expect(changedPrices(rows, { gst: '   ' }).changes).toEqual([]);
  });
  it('reports a bad value on its row and does not send it', () => {
    const r = changedPrices(rows, { pan: '-1', gst: 'x', bank: '12' });
    expect(r.errors).toEqual({ pan: 'Price cannot be negative', gst: 'Price must be a number' });
    expect(r.changes).toEqual([{ service: 'bank', price_paise: 1200 }]);
  });
});
