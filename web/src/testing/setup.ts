import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './server';

// findBy*/waitFor wait 1 s by default; on the shared 2-core CI machine a render can take longer
// without anything being wrong (the same reason as the test timeout in vite.config.ts).
configure({ asyncUtilTimeout: 5_000 });

// MSW's 'error' strategy, plus the test fails: an unhandled request only errors inside the app,
// which a test may not notice, so each one is remembered and thrown after the test.
const unhandled: string[] = [];
beforeAll(() =>
  server.listen({
    onUnhandledRequest(request, print) {
      unhandled.push(`${request.method} ${new URL(request.url).pathname}`);
      print.error();
    },
  }),
);

afterEach(() => {
  cleanup();
  // Each test declares its own API (mockApi); none leaks into the next.
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
  if (unhandled.length) throw new Error(`requests no test declared (mockApi): ${unhandled.splice(0).join(', ')}`);
});

afterAll(() => server.close());
