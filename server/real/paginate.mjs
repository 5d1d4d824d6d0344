// The plugins' page token (kubeapps-apis plugins/pkg/paginate: ItemOffsetFromPageToken): "" is 0,
// otherwise Go's strconv.ParseInt(token, 10, 64), sign allowed; anything else is InvalidArgument.
import { PluginError } from "./plugin-error.mjs";

/** The item offset of a page token; throws PluginError invalid_argument with Go's message. */
export function itemOffsetFromPageToken(token = "") {
  if (token === "") return 0;
  const bad = (why) => new PluginError("invalid_argument",
    `Unable to interpret page token ${JSON.stringify(token)}: strconv.ParseInt: parsing ${JSON.stringify(token)}: ${why}`);
  if (!/^[+-]?\d+$/.test(token)) throw bad("invalid syntax");
  const n = BigInt(token);
  if (n < -(1n << 63n) || n >= 1n << 63n) throw bad("value out of range");
  if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < -BigInt(Number.MAX_SAFE_INTEGER)) throw bad("value out of range (here: beyond 2^53)");
  return Number(n);
}
