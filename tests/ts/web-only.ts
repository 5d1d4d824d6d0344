// Under moduleResolution bundler or node10 the declarations are the web build's: `init` takes an
// optional wasm source, and `initSync` exists. No `using` here: this file is also checked with
// skipLibCheck instead of the esnext.disposable lib (tsconfig.skiplib.json).
import init, { init as namedInit, initSync, Pager, type InitInput } from "kubeapps-pager";
import initCodec, { initSync as initSyncCodec, inspectToken } from "kubeapps-pager/codec";

export async function webOnly(wasm: BufferSource, codecWasm: BufferSource): Promise<void> {
  const source: InitInput = new URL("/assets/kubeapps_pager_bg.wasm", "https://example.test");
  await init({ module_or_path: source });
  await namedInit();
  await initCodec();
  initSync({ module: wasm });
  initSyncCodec({ module: codecWasm });
  const pager = new Pager({ sources: [{ plugin: "helm.packages" }] });
  const kind: string = inspectToken(pager.pageToken()).kind;
  pager.free();
  void kind;
}
