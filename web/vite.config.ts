import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

// The console is served by Vexil itself from web/dist: hashed files under /assets, no CDN.
export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  build: { outDir: path.join(root, 'dist'), emptyOutDir: true, assetsDir: 'assets', sourcemap: false },
  server: { proxy: { '/management': 'http://localhost:8080', '/v1': 'http://localhost:8080', '/docs': 'http://localhost:8080' } },
});
