// View details keeps the client in session storage (`selected-client`) for the
// client-details screen; the super-admin logout clears it.
import type { Client } from './types';

export const SELECTED_CLIENT_KEY = 'selected-client';

export function storeSelectedClient(client: Client): void {
  sessionStorage.setItem(SELECTED_CLIENT_KEY, JSON.stringify(client));
}

export function readSelectedClient(): Client | null {
  const raw = sessionStorage.getItem(SELECTED_CLIENT_KEY);
  if (!raw) return null;
  try {
    const c = JSON.parse(raw) as Client;
    return typeof c?.id === 'number' ? c : null;
  } catch {
    return null;
  }
}
