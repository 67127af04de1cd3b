// Which end user a per-user screen works on, and through whose console. The partner's User
// Detail names the user alone (the partner comes from the session); the super admin's client
// details names the client too. The tabs are the same components either way, over the same
// endpoints under one of two prefixes.
export type UserRef = { userId: number; clientId?: number };

export function userApiPath({ userId, clientId }: UserRef): string {
  return clientId === undefined ? `/partner/users/${userId}` : `/superadmin/clients/${clientId}/users/${userId}`;
}
