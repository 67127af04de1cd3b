// The portal's routes on a partner's site (`{subdomain}.{PLATFORM_DOMAIN}`): the app mounts
// these instead of the platform's when index.html names a partner site (lib/site.ts).
export const portalPaths = {
  home: '/',
  login: '/login',
  signup: '/signup',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password/:token',
  logout: '/logout',
  dashboard: '/dashboard',
  apis: '/apis',
  apiKeys: '/api-keys',
  tryIt: '/try-it',
  history: '/history',
  topUp: '/top-up',
  profile: '/profile',
  batch: '/batch',
  webhooks: '/webhooks',
} as const;
