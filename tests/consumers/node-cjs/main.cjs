// A CommonJS consumer (Jest's default, older Node code): `require` the package; the shared
// paging routine is ESM, so it comes through a dynamic import, the package itself through require.
const { init, Pager, PagerError } = require("kubeapps-pager");
const codec = require("kubeapps-pager/codec");
const { encodeContinueToken, decodeContinueToken, PagerError: CodecPagerError } = codec;

(async () => {
  const { pageAll } = await import("./catalog.mjs");
  await Promise.all([init(), codec.init()]);
  const report = await pageAll({ Pager, PagerError, encodeContinueToken, decodeContinueToken, CodecPagerError });
  report.resolved = require.resolve("kubeapps-pager");
  process.stdout.write(JSON.stringify(report));
})().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
