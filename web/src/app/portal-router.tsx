// The route table of a partner's site (`{subdomain}.{PLATFORM_DOMAIN}`): the end users' portal.
// app.tsx mounts it instead of router.tsx when index.html names a partner site (lib/site.ts), so
// the platform's pages (its pitch to partners, partner sign-up and the consoles) are never
// reachable here, and the portal's are never reachable on the platform's address.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { portalPaths } from '@/features/portal/paths';
import { UserGuard, UserGuestOnly } from './guards';
import { PortalLayout } from './layouts/portal-layout';
import { PortalRoot } from './routes/portal/root';
import { PortalLogout } from './routes/portal/logout';

const Home = lazy(() => import('./routes/portal/home'));
const Login = lazy(() => import('./routes/portal/login'));
const SignUp = lazy(() => import('./routes/portal/signup'));
const ForgotPassword = lazy(() => import('./routes/portal/forgot-password'));
const ResetPassword = lazy(() => import('./routes/portal/reset-password'));
const Dashboard = lazy(() => import('./routes/portal/dashboard'));
const Apis = lazy(() => import('./routes/portal/apis'));
const ApiKeys = lazy(() => import('./routes/portal/api-keys'));
const TryIt = lazy(() => import('./routes/portal/try-it'));
const History = lazy(() => import('./routes/portal/history'));
const TopUp = lazy(() => import('./routes/portal/top-up'));
const Profile = lazy(() => import('./routes/portal/profile'));
const Batch = lazy(() => import('./routes/portal/batch'));
const Webhooks = lazy(() => import('./routes/portal/webhooks'));
const Policy = lazy(() => import('./routes/portal/policy'));
const NotFound = lazy(() => import('./routes/not-found'));

const el = (C: LazyExoticComponent<ComponentType>) => <C />;

export const portalRoutes: RouteObject[] = [
  {
    element: <PortalRoot />,
    children: [
      { path: portalPaths.home, element: el(Home) },
      { path: '/privacy-policy', element: <Policy kind="privacy" /> },
      { path: '/terms-and-conditions', element: <Policy kind="terms" /> },
      { path: '/cancellation-policy', element: <Policy kind="cancellation" /> },
      {
        element: <UserGuestOnly />,
        children: [
          { path: portalPaths.login, element: el(Login) },
          { path: portalPaths.signup, element: el(SignUp) },
        ],
      },
      { path: portalPaths.forgotPassword, element: el(ForgotPassword) },
      { path: portalPaths.resetPassword, element: el(ResetPassword) },
      { path: portalPaths.logout, element: <PortalLogout /> },
      {
        element: <UserGuard />,
        children: [
          {
            element: <PortalLayout />,
            children: [
              { path: portalPaths.dashboard, element: el(Dashboard) },
              { path: portalPaths.apis, element: el(Apis) },
              { path: portalPaths.apiKeys, element: el(ApiKeys) },
              { path: portalPaths.tryIt, element: el(TryIt) },
              { path: portalPaths.history, element: el(History) },
              { path: portalPaths.topUp, element: el(TopUp) },
              { path: portalPaths.profile, element: el(Profile) },
              { path: portalPaths.batch, element: el(Batch) },
              { path: portalPaths.webhooks, element: el(Webhooks) },
            ],
          },
        ],
      },
      { path: '*', element: el(NotFound) },
    ],
  },
];

export const createPortalRouter = () => createBrowserRouter(portalRoutes);
