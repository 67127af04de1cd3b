// Two-step upload (api-contract "uploads"): ask the api for a signed address,
// then PUT the file to it. Returns the storage key to save with the record.
import { api } from './api-client';

export type UploadPurpose = 'logo' | 'favicon' | 'qr' | 'statement';

type UploadTicket = {
  key: string;
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expires_at: string;
};

export const LOGO_MAX_BYTES = 1024 * 1024;
export const FAVICON_MAX_BYTES = 10 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/jpg'];

/** Spaces become underscores and a random 5-letter upper-case prefix is added (spec part 1 §5). */
export function storageFileName(name: string, random: () => number = Math.random): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let prefix = '';
  for (let i = 0; i < 5; i++) prefix += letters[Math.floor(random() * letters.length)];
  return prefix + name.replace(/\s+/g, '_');
}

export async function uploadFile(file: File, purpose: UploadPurpose): Promise<{ key: string; url: string }> {
  const ticket = await api.post<UploadTicket>('/uploads', {
    purpose,
    file_name: storageFileName(file.name),
    content_type: file.type,
    size: file.size,
  });
  const res = await fetch(ticket.url, {
    method: ticket.method ?? 'PUT',
    headers: { 'Content-Type': file.type, ...(ticket.headers ?? {}) },
    body: file,
  });
  if (!res.ok) throw new Error(`upload failed: ${res.status}`);
  return { key: ticket.key, url: ticket.url };
}
