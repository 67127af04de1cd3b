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
/** Logo and QR image (spec part 2, §5). */
export const TOO_LARGE_1MB = 'File size is too large. Please select a file smaller than 1MB.';
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/jpg'];

export async function uploadFile(file: File, purpose: UploadPurpose): Promise<{ key: string; url: string }> {
  const ticket = await api.post<UploadTicket>('/uploads', {
    purpose,
    // The server turns spaces into underscores and adds the random 5-letter prefix (spec
    // part 1 §5), so the key is built in one place.
    file_name: file.name,
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
