/**
 * The console's build: a static bundle under /console/ that the strict CSP of console-site.ts allows,
 * so nothing may be inlined (no module-preload polyfill, no inline styles, no inlined assets).
 */
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/console/',
  plugins: [preact({ prerender: { enabled: false } })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    cssCodeSplit: false,
    target: 'es2022',
  },
});
