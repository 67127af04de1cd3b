// Query keys of the ip-access feature (Whitelist IP and blocked IPs): every query and
// invalidation of it goes through here.
export type IpList = 'whitelist' | 'blocked';
export type IpFilter = { user_id: string; ip: string; date: string };

export const ipAccessKeys = {
  all: ['ip-access'] as const,
  list: (list: IpList) => [...ipAccessKeys.all, list] as const,
  page: (list: IpList, filter: IpFilter, page: number) => [...ipAccessKeys.list(list), { ...filter, page }] as const,
  user: (userId: number, page: number) => [...ipAccessKeys.list('whitelist'), 'user', userId, { page }] as const,
};
