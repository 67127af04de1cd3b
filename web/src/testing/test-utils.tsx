import { render } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders, makeQueryClient } from '@/app/providers';
import { API_BASE } from '@/lib/api-client';
import { server } from './server';

/** Renders routes at `path` inside the app's providers, with a fresh query cache. */
export function renderRoutes(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const client = makeQueryClient();
  client.setDefaultOptions({ queries: { retry: false } });
  const utils = render(
    <AppProviders client={client}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, router, client };
}

/**
 * The platform's own domain: no partner site, so GET /public/branding answers 204 (nothing to
 * brand) as the server does there. Spread into mockApi by tests of pages that show the site's brand.
 */
export const platformSite = { 'GET /public/branding': { status: 204 } } as const;

/** One request the mock API answered, as the app sent it. */
export type ApiCall = {
  /** Path and query string, e.g. '/api/v1/partner/users?page=2'. */
  url: string;
  /** The method, the JSON body text (undefined when there is none) and the lower-case headers. */
  init: { method: string; body: string | undefined; headers: Record<string, string> };
};

/** An answer: a status with an optional JSON body, or `network: true` for a failed connection. */
export type Reply = { status: number; body?: unknown } | { network: true };
type Route = Reply | ((call: ApiCall) => Reply);

const METHODS = { GET: http.get, POST: http.post, PUT: http.put, PATCH: http.patch, DELETE: http.delete };

/**
 * Declares the API a test talks to, through MSW: `'METHOD /path'` under /api/v1 (MSW's path
 * syntax, e.g. `/partner/users/:id`; a path under /files/ is the signed-link file store and is
 * taken as it is) to a reply, or to a function of the call. Returns the calls
 * in the order they came. A request that matches no route fails the test (setup.ts).
 */
export function mockApi(routes: Record<string, Route>): ApiCall[] {
  const calls: ApiCall[] = [];
  const handlers = Object.entries(routes).map(([route, reply]) => {
    const [method, path] = route.split(' ');
    const on = METHODS[method as keyof typeof METHODS];
    if (!on || !path?.startsWith('/')) throw new Error(`mockApi: a route is 'METHOD /path', not '${route}'`);
    return on(path.startsWith('/files/') ? path : `${API_BASE}${path}`, async ({ request }) => {
      const url = new URL(request.url);
      const text = await request.text();
      const call: ApiCall = {
        url: url.pathname + url.search,
        init: { method: request.method, body: text === '' ? undefined : text, headers: Object.fromEntries(request.headers.entries()) },
      };
      calls.push(call);
      const r = typeof reply === 'function' ? reply(call) : reply;
      if ('network' in r) return HttpResponse.error();
      return new HttpResponse(r.body === undefined ? null : JSON.stringify(r.body), {
        status: r.status,
        headers: { 'Content-Type': 'application/json' },
      });
    });
  });
  server.use(...handlers);
  return calls;
}
