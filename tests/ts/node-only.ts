// Under moduleResolution nodenext a Node program gets the Node build's declarations (ESM face:
// nodejs/index.d.mts): `init` takes nothing, and there is no `initSync` (web build only).
import init, {
  init as namedInit,
  Pager,
  // @ts-expect-error: initSync is the web build's; Node's build is ready on load
  initSync,
} from "kubeapps-pager";
import initCodec, {
  inspectToken,
  // @ts-expect-error: likewise for the codec entry
  initSync as initSyncCodec,
} from "kubeapps-pager/codec";

export async function nodeOnly(): Promise<void> {
  const ready: Promise<void> = init();
  await Promise.all([ready, namedInit(), initCodec()]);
  // @ts-expect-error: the Node build's init takes no argument
  await init(new URL("file:///x.wasm"));
  void Pager, inspectToken, initSync, initSyncCodec;
}
