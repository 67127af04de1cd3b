// Query keys of the policies feature: every query of it goes through here.
import type { PolicyKind } from './get-policy';

export const policiesKeys = {
  all: ['policies'] as const,
  one: (kind: PolicyKind) => [...policiesKeys.all, kind] as const,
};
