import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vitest/config';

// The Rust api (port 8080) serves the API and, in production, web/dist itself.
const backend = 'http://127.0.0.1:8080';

export default defineConfig({
  // React's automatic JSX runtime through esbuild: no extra Vite plugin needed.
  esbuild: { jsx: 'automatic' },
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    proxy: { '/api': backend, '/healthz': backend, '/files': backend },
  },
  preview: {
    proxy: { '/api': backend, '/healthz': backend, '/files': backend },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    rollupOptions: {
      // React libraries ship "use client" markers meant for server components; harmless here.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // Form tests type into many fields with user-event; on a loaded 2-core CI machine that can
    // take longer than vitest's 5 s default without anything being wrong.
    testTimeout: 30_000,
  },
});
