// The last 30 days' calls (bars) and spend (line), one point per IST day.
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount, formatRupees } from '@/lib/format';
import type { UsageDay } from '../api/types';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '2026-11-03' -> '3 Nov' (the day as the server gave it: no time-zone shift). */
export function shortDay(date: string): string {
  const [, m, d] = date.split('-').map(Number);
  return m && d ? `${d} ${MONTHS[m - 1]}` : date;
}

export function UsageChart({ days }: { days: UsageDay[] }) {
  const data = days.map((d) => ({ day: shortDay(d.date), calls: d.calls, spend: d.spend_paise / 100 }));
  const total = days.reduce((n, d) => n + d.calls, 0);
  return (
    <figure className="usage-chart" aria-label={`Calls and spend per day, last 30 days: ${formatCount(total)} calls`}>
      <ResponsiveContainer width="100%" height={260}>
        <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e6ee" />
          <XAxis dataKey="day" tick={{ fontSize: 12 }} interval="preserveStartEnd" minTickGap={16} />
          <YAxis yAxisId="calls" allowDecimals={false} tick={{ fontSize: 12 }} width={36} />
          <YAxis yAxisId="spend" orientation="right" tick={{ fontSize: 12 }} width={56} tickFormatter={(v: number) => `₹${formatCount(v)}`} />
          <Tooltip
            formatter={(value, name) => (name === 'Spend' ? formatRupees(Math.round(Number(value) * 100)) : formatCount(Number(value)))}
          />
          <Legend />
          <Bar yAxisId="calls" dataKey="calls" name="Calls" fill="var(--primary)" radius={[3, 3, 0, 0]} />
          <Line yAxisId="spend" dataKey="spend" name="Spend" stroke="var(--secondary)" strokeWidth={2} dot={false} type="linear" />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
