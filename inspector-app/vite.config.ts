import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Builds the three entry pages into dist/app: the standalone inspector, the paste page and
 * the extension panel. Relative base so the same files load from http://localhost and from
 * chrome-extension:// / moz-extension:// (the extension build copies dist/app into the extension).
 *
 * `npm run dev` serves the same pages from source with hot reload; the demo's WebSocket paths
 * (/demo, /demo/json, …) are passed on to the demo server (`npm run demo:server`, port
 * $DEMO_PORT or 8080), so the URL field's default connects as it does under `npm start`.
 */
const demoPort = process.env.DEMO_PORT || '8080';
export default defineConfig({
  root: here('.'),
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  server: {
    proxy: { '/demo': { target: `http://127.0.0.1:${demoPort}`, ws: true } },
  },
  build: {
    outDir: here('../dist/app'),
    emptyOutDir: true,
    target: 'es2022',
    // Monaco is one large lazy chunk; it is loaded after the list is on screen.
    chunkSizeWarningLimit: 6000,
    rollupOptions: {
      input: {
        index: here('index.html'),
        paste: here('paste.html'),
        panel: here('panel.html'),
      },
    },
  },
});
