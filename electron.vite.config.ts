import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

// One entry per process (electron-vite's vanilla-ts template). The preload runs with
// sandbox: true, which only loads CommonJS, so it is emitted as .cjs.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      // The raw ZPL printers' rendering thread is found beside the main bundle (src/main/printing/zpl/zpl-raster-pool.ts).
      rollupOptions: {
        input: { index: resolve('src/main/electron/main.ts'), 'zpl-raster-worker': resolve('src/main/printing/zpl/zpl-raster-worker.ts') },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require only 'electron' and a few Node built-ins, so its
      // dependencies (zod, via src/shared/agent-api.ts) are bundled in, not externalized.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    build: { outDir: 'out/renderer', rollupOptions: { input: { index: resolve('src/renderer/index.html') } } },
  },
});
