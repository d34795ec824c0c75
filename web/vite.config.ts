import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { referenceAssets } from '../src/http/web/reference-assets.ts';
import { copyReferenceAssets, precompressFolder } from './build/precompress.ts';

const root = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(root, 'dist');
const swaggerRoot = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** After the bundle is written: the reference's files beside it, then gzip and brotli copies of every text file. */
const precompress: Plugin = {
  name: 'vexil-precompress',
  apply: 'build',
  closeBundle() {
    copyReferenceAssets(swaggerRoot, path.join(outDir, 'docs'), referenceAssets);
    precompressFolder(outDir);
  },
};

// The console is served by Vexil itself from web/dist: hashed files under /assets, no CDN.
export default defineConfig({
  root,
  base: '/',
  plugins: [react(), precompress],
  build: { outDir, emptyOutDir: true, assetsDir: 'assets', sourcemap: false },
  server: { proxy: { '/management': 'http://localhost:8080', '/v1': 'http://localhost:8080', '/docs': 'http://localhost:8080' } },
});
