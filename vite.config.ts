// Vite: React, ES-module workers, and COOP/COEP so SharedArrayBuffer and WASM threads work.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  assetsInclude: ['**/*.wasm'],
  server: { port: 5173, strictPort: true, headers: isolation },
  preview: { port: 5173, strictPort: true, headers: isolation },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
});
