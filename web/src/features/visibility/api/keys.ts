// Query keys of the visibility feature: every query and invalidation of it goes through here.
// Scopes: the partner's own (My APIs), one of its users, or a whole client (the super admin).
export type VisibilityScope = { scope: 'partner' } | { scope: 'user'; id: number } | { scope: 'client'; id: number };

export const visibilityKeys = {
  all: ['visibility'] as const,
  of: (s: VisibilityScope) => [...visibilityKeys.all, s.scope, s.scope === 'partner' ? 0 : s.id] as const,
};

export function visibilityPath(s: VisibilityScope): string {
  switch (s.scope) {
    case 'user':
      return `/partner/users/${s.id}/visibility`;
    case 'client':
      return `/superadmin/clients/${s.id}/visibility`;
    default:
      return '/partner/visibility';
  }
}
