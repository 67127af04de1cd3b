// One SQL statement against the e2e platform's database (scripts/test exports its URL), for
// what a browser cannot do quickly, such as letting a grace period run out.
import { execFileSync } from 'node:child_process';

export function sql(statement: string): string {
  const url = process.env.E2E_ENV_DATABASE_URL;
  if (!url) throw new Error('E2E_ENV_DATABASE_URL is not set: run the e2e tests through scripts/test');
  return execFileSync('psql', [url, '-Atqc', statement], { encoding: 'utf8' }).trim();
}
