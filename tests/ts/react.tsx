// A strict TypeScript consumer of "kubeapps-pager/react" and "kubeapps-pager/tanstack", with
// React 19's types (tsconfig.react.json) and React 18's (tsconfig.react18.json), and
// @tanstack/react-query 5's: the hook's and the adapter's results are typed
// by the fetchChunk's items, as `Pager<T>` pages are, and the adapter is what `useInfiniteQuery`
// takes, as it is. Checked by tsc (moduleResolution bundler); never run.
// `@ts-expect-error` lines prove the types bite.
import { useEffect, useMemo } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { kubeappsFetcher, readPageToken, type AvailablePackageSummary, type PagerOptions, type FetchChunk } from "kubeapps-pager";
import { usePager, type UsePagerResult } from "kubeapps-pager/react";
import { pagerInfiniteQuery, type PagerQueryPage } from "kubeapps-pager/tanstack";
import { createPromiseClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { connectFetcher } from "kubeapps-pager";
import { AvailablePackageSummary as Generated } from "../proto/gen/kubeapps_pb.js";
import { HelmPackagesService } from "../proto/gen/helm_connect.js";

const fetchChunk = kubeappsFetcher({ baseUrl: "/apis" });
const options: PagerOptions = { sources: [{ plugin: "helm.packages", cluster: "default", namespace: "kubeapps" }], pageSize: 24 };

export function Hook() {
  const list = usePager(options, fetchChunk, { maxPages: 5, url: { param: "p", place: "search" }, prefetch: { requests: 3 } });
  const typed: UsePagerResult<AvailablePackageSummary> = list;
  const names: string[] = list.items.map((s) => s.name);
  const late: AvailablePackageSummary[] = list.late;
  const retried: number = list.retryUnreachable();
  const sources: string[] = list.unreachable.map((u) => u.source);
  // @ts-expect-error: items are summaries, not strings
  const wrong: string[] = list.items;
  usePager(options, fetchChunk, { url: false });
  usePager(options, fetchChunk, { url: { read: () => readPageToken({ param: "x" }), write: (p) => void p.token } });
  // @ts-expect-error: place is "search" or "auto"
  usePager(options, fetchChunk, { url: { place: "hash" } });
  void [typed, names, late, retried, sources, wrong];
  return list.loading ? null : <button onClick={list.loadMore}>{list.categories.join(",")}</button>;
}

/** Items of a custom JSON shape: the hook's items are that shape. */
interface Widget { name: string; availablePackageRef: AvailablePackageSummary["availablePackageRef"] }
declare const widgets: FetchChunk<{ availablePackageSummaries: Widget[]; nextPageToken: string }>;

export function Custom() {
  const { items } = usePager(options, widgets);
  const w: Widget[] = items;
  return <>{w.length}</>;
}

export function Query() {
  const query = useMemo(() => pagerInfiniteQuery({ options, fetchChunk, maxPages: 3, at: readPageToken(), prefetch: false }), []);
  useEffect(() => () => query.free(), [query]);
  const q = useInfiniteQuery(query);
  const pages: PagerQueryPage<AvailablePackageSummary>[] | undefined = q.data?.pages;
  const first: number | undefined = q.data?.pages[0]?.index; // (TanStack v5 types `pageParams` as unknown[])
  const opened: number = query.stats.pagersOpened;
  // @ts-expect-error: pages hold summaries
  const bad: PagerQueryPage<string>[] | undefined = q.data?.pages;
  void [pages, first, opened, bad];
  return <button onClick={() => q.fetchNextPage()}>{q.hasNextPage ? "more" : "end"}</button>;
}

/** A dashboard's Connect clients (protobuf-es v1): the items are the generated class, no cast. */
const connect = connectFetcher({
  clients: { "helm.packages": createPromiseClient(HelmPackagesService, createGrpcWebTransport({ baseUrl: "/apis" })) },
});

export function Connect() {
  const { items } = usePager(options, connect);
  const generated: Generated[] = items;
  // @ts-expect-error: the generated class, not strings (items are not `any`)
  const notStrings: string[] = items;
  void notStrings;
  const query = useMemo(() => pagerInfiniteQuery({ options, fetchChunk: connect }), []);
  const q = useInfiniteQuery(query);
  const fromQuery: Generated[] | undefined = q.data?.pages[0]?.items;
  return <>{generated.map((s) => s.toJsonString()).join() + String(fromQuery?.length)}</>;
}
