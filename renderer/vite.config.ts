import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      // What the first screen needs goes in one file with the entry; each page loaded later
      // (App.tsx's lazy imports) and the composer's preview renderer get chunks of their own.
      output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } },
    },
  },
  server: {
    // `vite --config renderer/vite.config.ts` during development: the hub answers the APIs.
    proxy: Object.fromEntries(['/api', '/session', '/login', '/logout', '/setup', '/photo', '/attach', '/settings/oauth'].map((p) => [p, 'http://127.0.0.1:8420'])),
  },
});
