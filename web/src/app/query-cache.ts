// Where one feature's change must refresh another feature's data. Features never import each
// other (ESLint's import/no-restricted-paths), so these links live here, in the app layer, built
// from each feature's exported key factory, and the routes hand them to the components.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { authKeys } from '@/features/auth/api/keys';
import { clientsKeys } from '@/features/clients/api/keys';
import { ipAccessKeys } from '@/features/ip-access/api/keys';
import { ipHitsKeys } from '@/features/ip-hits/api/keys';
import { onboardingKeys } from '@/features/onboarding/api/keys';
import { plansKeys } from '@/features/plans/api/keys';
import { usersKeys } from '@/features/users/api/keys';
import { walletsKeys } from '@/features/wallets/api/keys';

/** What the app caches about the signed-in partner itself: profile, wizard, wallets, plan, counts. */
export const partnerSessionKeys = (): QueryKey[] => [
  onboardingKeys.all,
  walletsKeys.myBalances(),
  plansKeys.mine(),
  usersKeys.dashboard(),
];

/** What the app caches about the signed-in super admin itself. */
export const superAdminSessionKeys = (): QueryKey[] => [authKeys.superAdminMe(), clientsKeys.dashboard()];

/** A fresh sign-in must not show what an earlier session left in the cache. */
export function forgetSession(queryClient: QueryClient, keys: QueryKey[]) {
  for (const queryKey of keys) queryClient.removeQueries({ queryKey });
}

/** A wizard step changed the partner: its profile, status checks and plan are read again. */
export function refreshPartnerSession(queryClient: QueryClient) {
  for (const queryKey of partnerSessionKeys()) queryClient.invalidateQueries({ queryKey });
}

/** A client's plan changed: its header and the clients list show the plan too. */
export function refreshClient(queryClient: QueryClient, clientId: number) {
  queryClient.invalidateQueries({ queryKey: clientsKeys.detail(clientId) });
  queryClient.invalidateQueries({ queryKey: clientsKeys.lists() });
}

/** The partner's selling prices changed: My Plan shows them beside the cost. */
export function refreshMyPlan(queryClient: QueryClient) {
  queryClient.invalidateQueries({ queryKey: plansKeys.mine() });
}

/** An IP was blocked or unblocked: IP Hits shows its status, the Blocked IPs tab the record. */
export function refreshIpLists(queryClient: QueryClient) {
  queryClient.invalidateQueries({ queryKey: ipHitsKeys.all });
  queryClient.invalidateQueries({ queryKey: ipAccessKeys.list('blocked') });
}
