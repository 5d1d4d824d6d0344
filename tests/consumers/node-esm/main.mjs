// A Node ESM consumer: the default export is init (a no-op in Node), named exports as in the web build.
import init, { Pager, PagerError, encodeContinueToken, decodeContinueToken } from "kubeapps-pager";
import { pageAll } from "./catalog.mjs";

await init();
const report = await pageAll({ Pager, PagerError, encodeContinueToken, decodeContinueToken });
report.resolved = import.meta.resolve("kubeapps-pager");
process.stdout.write(JSON.stringify(report));
