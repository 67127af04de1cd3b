// Revenue and cost per day as bars, the margin as a line. Drawn at once, not animated: a period
// of months has a hundred bars, and a growing chart reads as an empty one.
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount, formatRupees } from '@/lib/format';
import type { EarningsDay } from '../api/get-earnings';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '2026-11-03' -> '3 Nov' (the UTC day as the server gave it: no time-zone shift). */
export function shortDay(date: string): string {
  const [, m, d] = date.split('-').map(Number);
  return m && d ? `${d} ${MONTHS[m - 1]}` : date;
}

export function EarningsChart({ days, label }: { days: EarningsDay[]; label: string }) {
  const data = days.map((d) => ({ day: shortDay(d.day), revenue: d.revenue_paise / 100, cost: d.cost_paise / 100, margin: d.margin_paise / 100 }));
  return (
    <figure className="earnings-chart" aria-label={label}>
      <ResponsiveContainer width="100%" height={280}>
        <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e6ee" />
          <XAxis dataKey="day" tick={{ fontSize: 12 }} interval="preserveStartEnd" minTickGap={16} />
          <YAxis tick={{ fontSize: 12 }} width={64} tickFormatter={(v: number) => `₹${formatCount(v)}`} />
          <Tooltip formatter={(value) => formatRupees(Math.round(Number(value) * 100))} />
          <Legend />
          <Bar dataKey="revenue" name="Revenue" fill="var(--primary)" radius={[3, 3, 0, 0]} isAnimationActive={false} />
          <Bar dataKey="cost" name="Cost" fill="#c4cad6" radius={[3, 3, 0, 0]} isAnimationActive={false} />
          <Line dataKey="margin" name="Margin" stroke="var(--success)" strokeWidth={2} dot={false} type="linear" isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
