// A CommonJS consumer (Jest's default, older Node code): `require` the package; the shared
// paging routine is ESM, so it comes through a dynamic import, the package itself through require.
const { init, Pager, PagerError, encodeContinueToken, decodeContinueToken } = require("kubeapps-pager");

(async () => {
  const { pageAll } = await import("./catalog.mjs");
  await init();
  const report = await pageAll({ Pager, PagerError, encodeContinueToken, decodeContinueToken });
  report.resolved = require.resolve("kubeapps-pager");
  process.stdout.write(JSON.stringify(report));
})().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
