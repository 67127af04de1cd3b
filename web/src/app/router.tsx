// The full route table (spec part 2 §2.1). Every screen is a lazy chunk.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PartnerGuard, PartnerGuestOnly, SuperAdminGuard, SuperAdminGuestOnly } from './guards';
import { AdminLayout } from './layouts/admin-layout';
import { SuperAdminLayout } from './layouts/superadmin-layout';
import { PartnerLogout, SuperAdminLogout } from './routes/logout';
import { paths } from './paths';

const Landing = lazy(() => import('./routes/landing'));
const Login = lazy(() => import('./routes/auth/login'));
const Signup = lazy(() => import('./routes/auth/signup'));
const VerifyEmail = lazy(() => import('./routes/auth/verify-email'));
const ResetPasswordAdmin = lazy(() => import('./routes/auth/reset-password-admin'));
const SetNewPassword = lazy(() => import('./routes/auth/set-new-password'));
const CompleteDetails = lazy(() => import('./routes/onboarding/complete-details'));
const PlanDetails = lazy(() => import('./routes/plan-details'));
const PrivacyPolicy = lazy(() => import('./routes/policy').then((m) => ({ default: m.PrivacyPolicy })));
const Terms = lazy(() => import('./routes/policy').then((m) => ({ default: m.TermsAndConditions })));
const CancellationPolicy = lazy(() => import('./routes/policy').then((m) => ({ default: m.CancellationPolicy })));
const Dashboard = lazy(() => import('./routes/admin/dashboard'));
const ResetPassword = lazy(() => import('./routes/admin/reset-password'));
const SuperAdminLogin = lazy(() => import('./routes/superadmin/login'));
const SaDashboard = lazy(() => import('./routes/superadmin/dashboard'));
const AddUserManually = lazy(() => import('./routes/admin/add-user-manually'));
const UserAccounts = lazy(() => import('./routes/admin/user-accounts'));
const UserDetail = lazy(() => import('./routes/admin/user-detail'));
const MyTransactions = lazy(() => import('./routes/admin/my-transactions'));
const UserTransactions = lazy(() => import('./routes/admin/user-transactions'));
const MyApis = lazy(() => import('./routes/admin/my-apis'));
const WhitelistIp = lazy(() => import('./routes/admin/whitelist-ip'));
const IpHits = lazy(() => import('./routes/admin/ip-hits'));
const Webhooks = lazy(() => import('./routes/admin/webhooks'));
const MyAccount = lazy(() => import('./routes/admin/my-account'));
const MyPlan = lazy(() => import('./routes/admin/my-plan'));
const TruBank = lazy(() => import('./routes/admin/trubank'));
const SaClients = lazy(() => import('./routes/superadmin/clients'));
const SaClientDetails = lazy(() => import('./routes/superadmin/client-details'));
const SaPlans = lazy(() => import('./routes/superadmin/plans'));
const SaWalletTransactions = lazy(() => import('./routes/superadmin/wallet-transactions'));
const SaApis = lazy(() => import('./routes/superadmin/apis'));
const SaTestApis = lazy(() => import('./routes/superadmin/test-apis'));
const SaJobs = lazy(() => import('./routes/superadmin/jobs'));
const SaMail = lazy(() => import('./routes/superadmin/mail'));
const NotFound = lazy(() => import('./routes/not-found'));

const el = (C: LazyExoticComponent<ComponentType>) => <C />;

export const routes: RouteObject[] = [
  { path: paths.landing, element: el(Landing) },
  { path: paths.signup, element: el(Signup) },
  { path: paths.verifyEmail, element: el(VerifyEmail) },
  { path: paths.resetPasswordAdmin, element: el(ResetPasswordAdmin) },
  { path: paths.setNewPassword, element: el(SetNewPassword) },
  { path: paths.completeDetails, element: el(CompleteDetails) },
  { path: paths.planDetails, element: el(PlanDetails) },
  { path: paths.privacyPolicy, element: el(PrivacyPolicy) },
  { path: paths.terms, element: el(Terms) },
  { path: paths.cancellationPolicy, element: el(CancellationPolicy) },
  { element: <PartnerGuestOnly />, children: [{ path: paths.auth, element: el(Login) }] },
  { path: paths.logout, element: <PartnerLogout /> },
  {
    element: <PartnerGuard />,
    children: [
      {
        element: <AdminLayout />,
        children: [
          { path: paths.dashboard, element: el(Dashboard) },
          { path: paths.userAccounts, element: el(UserAccounts) },
          { path: paths.userDetail, element: el(UserDetail) },
          { path: paths.addUserManually, element: el(AddUserManually) },
          { path: paths.resetPassword, element: el(ResetPassword) },
          { path: paths.userTransactions, element: el(UserTransactions) },
          { path: paths.myTransactions, element: el(MyTransactions) },
          { path: paths.myPlan, element: el(MyPlan) },
          { path: paths.myApis, element: el(MyApis) },
          { path: paths.trubank, element: el(TruBank) },
          { path: paths.myAccount, element: el(MyAccount) },
          { path: paths.whitelistIp, element: el(WhitelistIp) },
          { path: paths.ipHits, element: el(IpHits) },
          { path: paths.webhooks, element: el(Webhooks) },
        ],
      },
    ],
  },
  { element: <SuperAdminGuestOnly />, children: [{ path: paths.superadmin.auth, element: el(SuperAdminLogin) }] },
  { path: paths.superadmin.logout, element: <SuperAdminLogout /> },
  { path: '/superadmin', element: <Navigate to={paths.superadmin.dashboard} replace /> },
  {
    element: <SuperAdminGuard />,
    children: [
      {
        element: <SuperAdminLayout />,
        children: [
          { path: paths.superadmin.dashboard, element: el(SaDashboard) },
          { path: paths.superadmin.clients, element: el(SaClients) },
          { path: paths.superadmin.clientDetails, element: el(SaClientDetails) },
          { path: paths.superadmin.plans, element: el(SaPlans) },
          { path: paths.superadmin.walletTransactions, element: el(SaWalletTransactions) },
          { path: paths.superadmin.apis, element: el(SaApis) },
          { path: paths.superadmin.testApis, element: el(SaTestApis) },
          { path: paths.superadmin.jobs, element: el(SaJobs) },
          { path: paths.superadmin.mail, element: el(SaMail) },
        ],
      },
    ],
  },
  { path: '*', element: el(NotFound) },
];

export const createAppRouter = () => createBrowserRouter(routes);
