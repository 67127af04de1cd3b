// Done and failed attempts per minute over the last hour, of one kind or all. The two lines
// differ by their dash as well as their colour, and the totals under the chart say in words
// what it shows.
import { useId, useState } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Alert } from '@/components/ui/alert';
import { errorMessage } from '@/lib/api-client';
import { formatCount } from '@/lib/format';
import { useThroughput } from '../api/get-throughput';
import { minuteSeries, totals } from './throughput';

export function ThroughputChart({ kinds }: { kinds: string[] }) {
  const throughput = useThroughput();
  const [kind, setKind] = useState('');
  const kindId = useId();
  const minutes = throughput.data?.minutes ?? [];
  const data = minuteSeries(minutes, kind, throughput.dataUpdatedAt);
  const sum = totals(minutes, kind);
  const which = kind ? kind : 'all kinds';
  const summary = `Last hour, ${which}: ${formatCount(sum.done)} done, ${formatCount(sum.failed)} failed.`;

  return (
    <div className="throughput">
      {throughput.isError && <Alert message={{ kind: 'error', text: errorMessage(throughput.error) }} />}
      <div className="inline-field">
        <label htmlFor={kindId}>Job kind in the chart</label>
        <select id={kindId} value={kind} onChange={(e) => setKind(e.target.value)}>
          <option value="">All kinds</option>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </div>
      <figure className="earnings-chart" aria-label={`Done and failed per minute, ${which}`}>
        {/* Drawn only once there is data: an empty chart reads as "nothing happened". */}
        {throughput.data && (
          <ResponsiveContainer width="100%" height={240}>
            <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="#e2e6ee" />
              <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" minTickGap={24} />
              <YAxis tick={{ fontSize: 12 }} width={40} allowDecimals={false} />
              <Tooltip />
              <Legend />
              <Line dataKey="done" name="Done" stroke="var(--success)" strokeWidth={2} dot={false} type="linear" isAnimationActive={false} />
              <Line
                dataKey="failed"
                name="Failed"
                stroke="var(--danger)"
                strokeWidth={2}
                strokeDasharray="6 4"
                dot={false}
                type="linear"
                isAnimationActive={false}
              />
            </LineChart>
          </ResponsiveContainer>
        )}
        <figcaption className="muted">
          {throughput.isLoading ? 'Loading...' : summary}
        </figcaption>
      </figure>
    </div>
  );
}
