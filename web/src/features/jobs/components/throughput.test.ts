import { minuteLabel, minuteSeries, SERIES_MINUTES, totals } from './throughput';

const at = Date.parse('2026-11-23T10:30:40Z');
const m = (iso: string, kind: string, done: number, failed: number) => ({ minute: iso, kind, done, failed });

describe('minuteSeries', () => {
  it('has every minute of the last hour, summing the kinds or keeping one, the gaps as zeros', () => {
    const minutes = [
      m('2026-11-23T09:30:00Z', 'send_mail', 9, 9), // the API's oldest minute: still in the window
      m('2026-11-23T10:00:00Z', 'send_mail', 4, 1),
      m('2026-11-23T10:00:00Z', 'export_csv', 2, 0),
      m('2026-11-23T10:30:00Z', 'send_mail', 1, 0),
      m('2026-11-23T09:00:00Z', 'send_mail', 100, 100), // older than the window: left out
    ];
    const all = minuteSeries(minutes, '', at);
    expect(all).toHaveLength(SERIES_MINUTES);
    expect(all[0]).toMatchObject({ at: Date.parse('2026-11-23T09:30:00Z'), label: '15:00', done: 9, failed: 9 });
    expect(all.at(-1)).toMatchObject({ label: '16:00', done: 1, failed: 0 });
    expect(all[30]).toMatchObject({ label: '15:30', done: 6, failed: 1 });
    expect(all[29]).toMatchObject({ done: 0, failed: 0 });
    expect(minuteSeries(minutes, 'export_csv', at)[30]).toMatchObject({ done: 2, failed: 0 });
  });

  it('ends at the newest minute the server sent when the browser clock is behind', () => {
    const series = minuteSeries([m('2026-11-23T10:33:00Z', 'send_mail', 1, 0)], '', at);
    expect(series.at(-1)).toMatchObject({ label: '16:03', done: 1 });
  });

  it('totals one kind or all', () => {
    const minutes = [m('2026-11-23T10:00:00Z', 'send_mail', 4, 1), m('2026-11-23T10:01:00Z', 'export_csv', 2, 3)];
    expect(totals(minutes, '')).toEqual({ done: 6, failed: 4 });
    expect(totals(minutes, 'send_mail')).toEqual({ done: 4, failed: 1 });
    expect(minuteLabel(Date.parse('2026-11-23T18:29:00Z'))).toBe('23:59');
  });
});
