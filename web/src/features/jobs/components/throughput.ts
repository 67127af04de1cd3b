// The throughput chart's data: the API leaves out minutes without attempts; the chart shows
// every minute of the last hour, of one kind or all kinds summed.
import { IST_ZONE } from '@/lib/format';
import type { ThroughputMinute } from '../api/get-throughput';

export type MinutePoint = { at: number; label: string; done: number; failed: number };

const MINUTE_MS = 60_000;
/** The API's window: the minute now and the sixty before it. */
export const SERIES_MINUTES = 61;

const clock = new Intl.DateTimeFormat('en-GB', { timeZone: IST_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** "14:05" on India's clock, the platform's one clock. */
export function minuteLabel(ms: number): string {
  return clock.format(new Date(ms));
}

const matches = (m: ThroughputMinute, kind: string) => !kind || m.kind === kind;

/**
 * One point per minute up to the minute of `now` (or of the newest minute the server sent,
 * when the browser's clock is behind), `kind` empty for every kind.
 */
export function minuteSeries(minutes: ThroughputMinute[], kind: string, now: number): MinutePoint[] {
  const newest = Math.max(now, ...minutes.map((m) => Date.parse(m.minute)).filter(Number.isFinite));
  const last = Math.floor(newest / MINUTE_MS) * MINUTE_MS;
  const first = last - (SERIES_MINUTES - 1) * MINUTE_MS;
  const points: MinutePoint[] = [];
  for (let at = first; at <= last; at += MINUTE_MS) points.push({ at, label: minuteLabel(at), done: 0, failed: 0 });
  for (const m of minutes) {
    if (!matches(m, kind)) continue;
    const i = Math.round((Date.parse(m.minute) - first) / MINUTE_MS);
    if (i < 0 || i >= points.length) continue;
    points[i].done += m.done;
    points[i].failed += m.failed;
  }
  return points;
}

/** Done and failed attempts of `kind` (empty: all kinds) over everything the server sent. */
export function totals(minutes: ThroughputMinute[], kind: string): { done: number; failed: number } {
  return minutes.filter((m) => matches(m, kind)).reduce((t, m) => ({ done: t.done + m.done, failed: t.failed + m.failed }), { done: 0, failed: 0 });
}
