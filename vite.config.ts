// Vite: React, ES-module workers, and COOP/COEP so SharedArrayBuffer and WASM threads work.
// The built app carries a Content-Security-Policy (docs/security.md): only its own scripts,
// workers and WebAssembly — no eval, no inline script, no third-party origin. It is injected
// as a <meta> for the build only (the dev server needs inline scripts for hot reload) and sent
// as a header by `vite preview`, where it also covers the workers' own responses.
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** Directives of the app's policy; 'wasm-unsafe-eval' lets tfjs compile its WASM backend. */
const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/** Puts the policy first in <head> of the built index.html (before any script or style). */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'starpo-csp',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  plugins: [react(), contentSecurityPolicy()],
  worker: { format: 'es' },
  assetsInclude: ['**/*.wasm'],
  server: { port: 5173, strictPort: true, headers: isolation },
  // frame-ancestors works only as a header (a <meta> ignores it).
  preview: {
    port: 5173,
    strictPort: true,
    headers: { ...isolation, 'Content-Security-Policy': `${CSP}; frame-ancestors 'none'` },
  },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
});
