// Reads the mail the platform wrote to its outbox folder (MAIL=outbox), as a person would
// read their inbox: scripts/test passes the folder in E2E_OUTBOX_DIR.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';

function outboxDir(): string {
  const dir = process.env.E2E_OUTBOX_DIR;
  if (!dir) throw new Error('E2E_OUTBOX_DIR is not set: run the e2e tests through scripts/test');
  return dir;
}

/** The text of an RFC 5322 message with its quoted-printable or base64 parts decoded. */
export function decodeMessage(raw: string): string {
  const text = raw.replace(/\r\n/g, '\n');
  const base64Parts = [...text.matchAll(/Content-Transfer-Encoding: base64\n(?:[^\n]+\n)*\n([A-Za-z0-9+/=\n]+)/gi)].map(
    (m) => Buffer.from(m[1].replace(/\n/g, ''), 'base64').toString('utf8'),
  );
  const qp = text
    .replace(/=\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return [qp, ...base64Parts].join('\n');
}

/** Every message to `to`, oldest first, decoded. */
export function messagesTo(to: string): string[] {
  let files: string[] = [];
  try {
    files = readdirSync(outboxDir()).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return files
    .map((f) => decodeMessage(readFileSync(join(outboxDir(), f), 'utf8')))
    .filter((m) => new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi').test(m));
}

/** Waits for the worker to deliver a mail to `to` that holds a link matching `pattern`. */
export async function waitForLink(to: string, pattern: RegExp): Promise<string> {
  let link = '';
  await expect
    .poll(
      () => {
        for (const m of messagesTo(to).reverse()) {
          const found = m.match(pattern);
          if (found) {
            link = found[0];
            return true;
          }
        }
        return false;
      },
      { timeout: 20_000, message: `a mail to ${to} with a link like ${pattern}` },
    )
    .toBe(true);
  return link;
}
