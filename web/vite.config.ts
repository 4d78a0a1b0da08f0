// Vite builds the web UI into dist/web, where the server serves it (docs/ui.md).
// `npx vite web` serves it for development and forwards /api to a server on port 8080.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // Every asset stays a same-origin file, so the page's policy needs no data: sources.
    assetsInlineLimit: 0,
    // The editor's chunk holds ELK's layout engine (about 1.4 MB); it loads only with the editor.
    chunkSizeWarningLimit: 2048,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
