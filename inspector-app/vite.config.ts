import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Builds the three entry pages into dist/app: the standalone inspector, the paste page and
 * the extension panel. Relative base so the same files load from http://localhost and from
 * chrome-extension:// / moz-extension:// (issue #6 copies dist/app into the extension).
 */
export default defineConfig({
  root: here('.'),
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
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
