// The codec module's own declarations ("kubeapps-pager/codec").

/** A package's identity: the same identifier from two plugins or namespaces is two packages. */
export interface Identity {
  plugin: string;
  cluster: string;
  namespace: string;
  /** `availablePackageRef.identifier`, e.g. `"bitnami/apache"`. */
  identifier: string;
}

/** The last key a source emitted: the sort field's value plus the item's identity. */
export interface Watermark {
  /** Value of `name` or `displayName` (the sort field), as the source gave it. */
  sortKey: string;
  identity: Identity;
}

/** One source's position in a page token. */
export interface SourceTokenState {
  plugin: string;
  cluster: string;
  namespace: string;
  /** The source token that fetched the current chunk, verbatim; `""` = the list's start. */
  chunkToken: string;
  /** Items of that chunk already consumed (before filtering), 0 to 2^32-1. */
  offset: number;
  /** The last item emitted from this source, or `null`. */
  watermark: Watermark | null;
  /** resourceVersion of the snapshot the chunk came from; `""` when none. */
  resourceVersion: string;
  /** Nothing more to come from this source. */
  exhausted: boolean;
  /** The source's list went on after a 410 Expired. */
  inconsistent: boolean;
  /**
   * The source was set aside (unreachable) while the list went past it: its items above its own
   * watermark and up to the others' are still to come (late). `decodePageToken` always gives it;
   * `encodePageToken` takes it missing as `false`.
   */
  behind?: boolean;
  /**
   * Identity hashes (xxh64 of the item's merge key, 16 lowercase hex digits each; 1 or 2) of items
   * of a source whose order is learned that end what it had read: a resume awaits them, or cuts
   * the source's whole read by them (docs/DESIGN.md "Order is learned"). Only when the position
   * holds them.
   */
  anchors?: string[];
  /**
   * A source read whole after a switch, with late items pending: the last late item consumed (a
   * resume skips the late items at or below it). Only when the position holds it.
   */
  lateWatermark?: Watermark;
}

/** The decoded NextPageToken (`decodePageToken`, `encodePageToken`). */
export interface PageTokenState {
  /** xxHash64 of (filter, sort order, source set), 16 lowercase hex digits. */
  fingerprint: string;
  /** Items per page when the token was minted. */
  pageSize: number;
  /** Every source, idle and exhausted ones included (at most 64). */
  sources: SourceTokenState[];
}

/** Input of `encodeContinueToken`. */
export interface ContinueTokenInput {
  /** The list's resourceVersion (etcd revision), a whole number or its decimal string; `-1` makes an inconsistent token. Not 0. */
  resourceVersion: number | string;
  /** The key to continue from, e.g. `"kubeapps/grafana\u0000"`; clean as a path. */
  start: string;
}

/**
 * A Kubernetes continue token's fields (format of k8s.io/apiserver/pkg/storage/continue.go).
 * `consistent` is false for the `rv: -1` token a 410 Expired answer carries.
 */
export interface ContinueTokenFields {
  version: string;
  /** Decimal string, as Kubernetes writes it (exact for any int64). */
  resourceVersion: string;
  start: string;
  consistent: boolean;
}

/** A Kubeapps token: the core API's `{"plugin": offset}` map, or a plugin's decimal item offset (`-1` = finished). */
export type KubeappsToken =
  | { kind: "core"; entries: { plugin: string; offset: number }[] }
  | { kind: "offset"; offset: number };

/** What `inspectToken` found. */
export type TokenInfo =
  | ({ kind: "page"; version: number; byteLength: number; textLength: number } & PageTokenState)
  | ({ kind: "continue" } & ContinueTokenFields)
  | { kind: "kubeappsCore"; entries: { plugin: string; offset: number }[] }
  | { kind: "kubeappsOffset"; offset: number }
  | {
      kind: "invalid";
      /** The most plausible kind. */
      likelyKind: "page" | "continue" | "kubeappsCore" | "kubeappsOffset";
      code: PagerErrorCode;
      reason: TokenFault;
      message: string;
    };
