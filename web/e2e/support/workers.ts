// The platform's worker processes, for specs that kill them mid-job as a crash would:
// scripts/test passes their pids (E2E_WORKER_PIDS), the binary (E2E_WORKER_BIN) and their
// environment ($E2E_DIR/worker.env). A worker started here is listed in
// $E2E_DIR/extra-workers.pid, so the script stops it with the rest when the run ends.
import { spawn } from 'node:child_process';
import { appendFileSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the e2e tests through scripts/test`);
  return v;
}

function extraPids(): number[] {
  try {
    return readFileSync(join(need('E2E_DIR'), 'extra-workers.pid'), 'utf8')
      .split('\n')
      .map(Number)
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

/** SIGKILLs every worker of the run: nothing is cleaned up, as when a machine dies. */
export function killAllWorkers(): void {
  const pids = [...need('E2E_WORKER_PIDS').split(',').map(Number), ...extraPids()];
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** Starts a worker as scripts/test does, left running until the script's end. */
export function startWorker(): number {
  const dir = need('E2E_DIR');
  const env = Object.fromEntries(
    readFileSync(join(dir, 'worker.env'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  const log = openSync(join(dir, `worker-extra-${Date.now()}.log`), 'a');
  const child = spawn(need('E2E_WORKER_BIN'), [], { cwd: dir, env, stdio: ['ignore', log, log], detached: true });
  child.unref();
  if (!child.pid) throw new Error('the worker did not start');
  appendFileSync(join(dir, 'extra-workers.pid'), `${child.pid}\n`);
  return child.pid;
}
