// What the jobs API answers, for the unit tests of the Jobs page and its parts (mockApi).
import type { JobDetail } from '../api/get-job';
import type { JobRow } from '../api/get-jobs';
import type { KindStats, Operations } from '../api/get-operations';

export const kindStats = (kind: string, over: Partial<KindStats> = {}): KindStats => ({
  kind,
  queued: 0,
  running: 0,
  retrying: 0,
  failed: 0,
  discarded: 0,
  done_last_hour: 0,
  done_last_minute: 0,
  oldest_queued_secs: 0,
  ...over,
});

const worker = (pid: number, status: Operations['workers'][number]['status']) => ({
  id: `box-${pid}`,
  host: 'box',
  pid,
  concurrency: 4,
  started_at: '2026-11-23T09:00:00Z',
  last_seen_at: '2026-11-23T10:00:00Z',
  stopped_at: null,
  queues: ['send_mail'],
  fetch_batch: 4,
  fetched_at: '2026-11-23T10:00:00Z',
  status,
});

/** GET /superadmin/jobs: send_mail and prune_jobs, two workers, nothing failed or paused. */
export const operations = (over: Partial<Operations> = {}): Operations => ({
  kinds: [kindStats('send_mail', { queued: 3 }), kindStats('prune_jobs')],
  recent_failures: [],
  workers: [worker(11, 'running'), worker(12, 'running')],
  heartbeat_secs: 30,
  periodic: [],
  running: [],
  paused: [],
  ...over,
});

export const jobRow = (id: string, over: Partial<JobRow> = {}): JobRow => ({
  id,
  kind: 'send_mail',
  state: 'queued',
  attempts: 0,
  max_attempts: 3,
  created_at: '2026-11-23T10:00:00Z',
  run_at: '2026-11-23T10:00:00Z',
  finished_at: null,
  last_error: null,
  worker: null,
  ...over,
});

/** The project's Page<T> (domain/src/infra/paging.rs). */
export const pageOf = <T>(items: T[], total = items.length, page = 1, perPage = 25) => ({
  items,
  page,
  per_page: perPage,
  total,
  pages: Math.ceil(total / perPage),
});

export const jobDetail = (id: string, over: Partial<JobDetail> = {}): JobDetail => ({
  ...jobRow(id),
  args: { to: 42 },
  next_run_at: null,
  history: [],
  ...over,
});

/** Every request the page makes besides the ones a test is about, answered plainly. */
export const pageApi = (ops: Operations = operations()) => ({
  'GET /superadmin/jobs/list': { status: 200, body: pageOf([]) },
  'GET /superadmin/jobs/throughput': { status: 200, body: { minutes: [] } },
  'GET /superadmin/jobs': { status: 200, body: ops },
});
