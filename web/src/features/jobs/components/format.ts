// Small texts the Jobs page repeats.
import type { WorkerProcess } from '../api/get-operations';

/** "1 job", "3 jobs". */
export function jobsCount(n: number): string {
  return `${n} ${n === 1 ? 'job' : 'jobs'}`;
}

/** "120 ms", "2.5 s", "2 m 5 s". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '_';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} m ${s % 60} s`;
}

/** A worker process as a person finds it ("box · 4711"); its id when it is not listed. */
export function workerName(id: string | null | undefined, workers: WorkerProcess[]): string {
  if (!id) return '_';
  const w = workers.find((p) => p.id === id);
  return w ? `${w.host} · ${w.pid}` : id;
}
