// For the dev server only (`vite --config vite.dev.config.js`; `vite build` needs no config): Vite
// pre-bundles dependencies with esbuild into node_modules/.vite/deps/, where the package's
// `new URL("kubeapps_pager_bg.wasm", import.meta.url)` would point at a file that is not there.
// Excluding the package serves it as it is, wasm beside its module. The line docs/USAGE.md gives.
export default {
  optimizeDeps: { exclude: ["kubeapps-pager"] },
};
