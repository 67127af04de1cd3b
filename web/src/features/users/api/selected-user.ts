// The user opened from User Accounts is kept in session storage under `user-detail` (spec
// part 1, §3), so /user-detail survives a reload; logout clears it.
import type { User } from './types';

export const SELECTED_USER_KEY = 'user-detail';

export function storeSelectedUser(user: User): void {
  sessionStorage.setItem(SELECTED_USER_KEY, JSON.stringify(user));
}

export function readSelectedUser(): User | null {
  const raw = sessionStorage.getItem(SELECTED_USER_KEY);
  if (!raw) return null;
  try {
    const u = JSON.parse(raw) as User;
    return typeof u?.id === 'number' ? u : null;
  } catch {
    return null;
  }
}
