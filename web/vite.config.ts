import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

export default defineConfig({
  plugins: [
    react(),
    // Brotli and gzip copies of every text asset, made once at build time at the highest
    // levels, which the server sends to browsers that accept them (plugins/web-app.ts): a phone
    // on a slow network downloads a quarter of the bytes, and no request pays for compression.
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline module preload polyfill: the Content-Security-Policy allows no inline script.
    modulePreload: { polyfill: false },
    // .vite/manifest.json: the server reads which chunks each page needs and names them in
    // index.html (server/src/plugins/first-screen.ts). Dot folders are never served.
    manifest: true,
  },
  server: {
    // In development the API runs on the server's port; the browser still sees one origin.
    proxy: { '/api': 'http://localhost:3000', '/static': 'http://localhost:3000' },
  },
});
