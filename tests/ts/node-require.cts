// A CommonJS module under moduleResolution nodenext: `require` gets nodejs/index.js and its
// declarations (nodejs/index.d.ts), `default` and `init` both the no-op init.
import pager = require("kubeapps-pager");
import codec = require("kubeapps-pager/codec");

export async function nodeRequire(): Promise<void> {
  await Promise.all([pager.init(), pager.default(), codec.init(), codec.default()]);
  const p = new pager.Pager({ sources: [{ plugin: "helm.packages" }] });
  const token: string = p.pageToken();
  p.free();
  const kind: string = codec.inspectToken(token).kind;
  void kind;
  // @ts-expect-error: no initSync in the Node build
  void pager.initSync;
}
