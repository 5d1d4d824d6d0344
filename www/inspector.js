// Token inspector: decodes whatever is pasted with the package's inspectToken() and shows its fields.
// Everything from the token is rendered with textContent (never as HTML).
// The token functions are the package's codec entry ("kubeapps-pager/codec"); no pager needed here.
import init, { inspectToken, encodePageToken, encodeContinueToken } from "/pkg/codec/web/index.js";

const $ = (id) => document.getElementById(id);

/** An element with text content and optional class. */
function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

/** Renders a value as text: strings as they are, everything else as JSON. */
function show(value) {
  return typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value, null, 1);
}

/** A two-column table of an object's fields; `testid` prefixes each value cell's data-testid. */
function fieldTable(obj, testid) {
  const table = el("table");
  for (const [key, value] of Object.entries(obj)) {
    const tr = el("tr");
    tr.append(el("th", key));
    const td = el("td", show(value));
    td.dataset.testid = `${testid}-${key}`;
    tr.append(td);
    table.append(tr);
  }
  return table;
}

function render(info) {
  const out = $("result");
  out.replaceChildren();
  const kind = el("span", info.kind, "kind" + (info.kind === "invalid" ? " invalid" : ""));
  kind.dataset.testid = "token-kind";
  out.append(kind);
  if (info.kind === "invalid") {
    const err = el("div", `${info.code ?? ""} ${info.reason ?? ""}: ${info.message ?? ""}`.trim(), "error");
    err.dataset.testid = "token-error";
    out.append(err);
  }
  const { sources, kind: _k, ...rest } = info;
  out.append(fieldTable(rest, "field"));
  if (Array.isArray(sources)) {
    sources.forEach((source, i) => {
      out.append(el("h2", `source ${i + 1}: ${source.plugin}/${source.cluster}/${source.namespace}`));
      out.append(fieldTable(source, `source${i}`));
    });
  }
}

function inspect() {
  const token = $("token").value.trim();
  if (!token) {
    $("result").replaceChildren(el("p", "Waiting for a token.", "hint"));
    return;
  }
  render(inspectToken(token));
}

/** Example tokens, made by the package itself so they always match the current format. */
function examples() {
  const chunk = encodeContinueToken({ resourceVersion: 4711, start: "kubeapps/grafana\u0000" });
  const source = (plugin, chunkToken, offset, identifier, exhausted) => ({
    plugin, cluster: "default", namespace: "kubeapps", chunkToken, offset,
    watermark: identifier
      ? { sortKey: identifier.split("/")[1], identity: { plugin, cluster: "default", namespace: "kubeapps", identifier } }
      : null,
    resourceVersion: plugin === "kapp_controller.packages" ? "4711" : "", exhausted, inconsistent: false,
  });
  return {
    page: encodePageToken({
      fingerprint: "9f86d081884c7d65", pageSize: 20,
      sources: [
        source("helm.packages", "40", 3, "bitnami/grafana", false),
        source("fluxv2.packages", "", 0, "podinfo/podinfo", true),
        source("kapp_controller.packages", chunk, 1, "tce/grafana", false),
      ],
    }),
    continue: chunk,
    core: '{"helm.packages":40,"fluxv2.packages":-1,"kapp_controller.packages":12}',
    offset: "40",
  };
}

async function main() {
  await init();
  const samples = examples();
  $("token").addEventListener("input", inspect);
  for (const button of document.querySelectorAll("[data-example]")) {
    button.addEventListener("click", () => {
      $("token").value = samples[button.dataset.example];
      inspect();
    });
  }
  const fromUrl = new URLSearchParams(location.search).get("token");
  if (fromUrl) {
    $("token").value = fromUrl;
    inspect();
  }
  $("status").textContent = "ready";
  document.body.dataset.ready = "1";
}

main().catch((e) => {
  $("status").textContent = `failed to start: ${e}`;
});
