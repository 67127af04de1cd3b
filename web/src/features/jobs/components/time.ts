// Short durations for an operator: "4 s", "2 m 5 s", "3 h 10 m".
export function formatSecs(secs: number): string {
  const s = Math.max(0, Math.round(secs));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} m ${s % 60} s`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} m`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

/** "12 s ago" from an ISO time, against `now` (ms). */
export function ago(iso: string | null, now: number): string {
  if (!iso) return '_';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '_';
  return `${formatSecs((now - t) / 1000)} ago`;
}
