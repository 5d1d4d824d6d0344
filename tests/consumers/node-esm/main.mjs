// A Node ESM consumer: the default export is init (a no-op in Node), named exports as in the web build.
import init, { Pager, PagerError } from "kubeapps-pager";
import initCodec, { encodeContinueToken, decodeContinueToken, PagerError as CodecPagerError } from "kubeapps-pager/codec";
import { pageAll } from "./catalog.mjs";

await Promise.all([init(), initCodec()]);
const report = await pageAll({ Pager, PagerError, encodeContinueToken, decodeContinueToken, CodecPagerError });
report.resolved = import.meta.resolve("kubeapps-pager");
process.stdout.write(JSON.stringify(report));
