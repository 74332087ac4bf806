import { defineConfig } from 'vite';

// The same renderer the desktop window loads, built for the headless agent's web UI
// (`--ui-port`). Relative base so it can be served under any path.
export default defineConfig({
  root: 'src/renderer',
  base: './',
  build: { outDir: '../../out/renderer', emptyOutDir: true },
});
