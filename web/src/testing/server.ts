// The unit tests' one mock API (MSW), started in setup.ts with onUnhandledRequest: 'error': a
// request that no test declared fails that test instead of getting a made-up answer.
import { setupServer } from 'msw/node';

export const server = setupServer();
