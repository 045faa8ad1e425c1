import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline module preload polyfill: the Content-Security-Policy allows no inline script.
    modulePreload: { polyfill: false },
  },
  server: {
    // In development the API runs on the server's port; the browser still sees one origin.
    proxy: { '/api': 'http://localhost:3000', '/static': 'http://localhost:3000' },
  },
});
