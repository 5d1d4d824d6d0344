// The "Pods across clusters" route: the pods of every cluster Headlamp knows, merged in one list
// in the apiserver's order (namespace/name, ties by cluster), paged by kubeapps-pager through
// Headlamp's own proxy to each cluster's apiserver (`<backend>/clusters/<name>/api/v1/pods`, with
// `limit` and `continue`: one chunk per cluster for page 1, whatever the clusters' sizes).
import { getHeadlampAPIHeaders, K8s } from '@kinvolk/headlamp-plugin/lib';
import { Loader, SectionBox } from '@kinvolk/headlamp-plugin/lib/CommonComponents';
import Box from '@mui/material/Box';
import { type FetchChunk, kubernetesFetcher, type KubernetesList } from 'kubeapps-pager';
import { usePager } from 'kubeapps-pager/react';
import { useDeferredValue, useMemo, useState } from 'react';
import { PODS_PAGE_PARAM, useKubeappsConfig } from './config';
import { type Column, PagedList } from './PagedList';

/** What the table reads of a pod (the fetcher sets `cluster` on each object). */
export interface ClusterPod {
  cluster: string;
  metadata: { name: string; namespace?: string; uid?: string };
  spec?: { nodeName?: string };
  status?: { phase?: string };
}

/** `cluster/namespace/name`: unique in the list (the pager's identity of an object), a safe React key. */
export const podIdentity = (p: ClusterPod) =>
  `${p.cluster}/${p.metadata.namespace ?? ''}/${p.metadata.name}`;

const COLUMNS: Column<ClusterPod>[] = [
  { header: 'Namespace', cell: p => p.metadata.namespace ?? '' },
  { header: 'Name', cell: p => p.metadata.name },
  { header: 'Cluster', cell: p => p.cluster },
  { header: 'Phase', cell: p => p.status?.phase ?? '' },
  { header: 'Node', cell: p => p.spec?.nodeName ?? '' },
];

/** The route's page: waits for Headlamp's cluster list, then pages the pods of all of them. */
export function PodList() {
  // Headlamp's clusters (its kubeconfig's and the ones added in the browser); null until loaded.
  const clusters = K8s.useClustersConf();
  const names = clusters === null ? null : Object.keys(clusters).sort();
  return (
    <SectionBox title="Pods across clusters">
      {names === null ? (
        <Loader title="Loading clusters" />
      ) : names.length === 0 ? (
        <Box data-testid="cluster-pods" data-state="done" data-count={0}>
          No clusters.
        </Box>
      ) : (
        <ClusterPods clusters={names} />
      )}
    </SectionBox>
  );
}

function ClusterPods({ clusters }: { clusters: string[] }) {
  const config = useKubeappsConfig();
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const clusterKey = clusters.join(',');
  // One fetchChunk over every cluster, through Headlamp's proxy (`/clusters/<name>`, under the
  // backend's URL: same origin in a browser, a setting for Headlamp's desktop app). Its headers
  // are the ones Headlamp sends its backend (the desktop app's backend token, if any); the
  // cluster's credentials travel as Headlamp's own requests carry them (cookies, same origin).
  const fetchChunk: FetchChunk<KubernetesList<ClusterPod>> = useMemo(
    () =>
      kubernetesFetcher({
        clusters: Object.fromEntries(
          clusters.map(name => [
            name,
            {
              baseUrl: `${config.headlampBackendUrl}/clusters/${encodeURIComponent(name)}`,
              headers: getHeadlampAPIHeaders(),
            },
          ])
        ),
      }),
    // clusterKey stands for clusters' content
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [clusterKey, config.headlampBackendUrl]
  );
  const options = useMemo(
    () => ({
      sources: clusters.map(cluster => ({ cluster, resource: 'pods.v1' })),
      sort: 'apiserver' as const,
      pageSize: config.pageSize,
      filter: { query: deferredQuery },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [clusterKey, config.pageSize, deferredQuery]
  );
  const pager = usePager(options, fetchChunk, { url: { param: PODS_PAGE_PARAM } });
  return (
    <PagedList
      testId="cluster-pods"
      title="Pods across clusters"
      noun={['pod', 'pods']}
      searchLabel="Search pod names"
      query={query}
      onQuery={setQuery}
      pager={pager}
      columns={COLUMNS}
      identity={podIdentity}
      lateCause="a cluster back"
    />
  );
}
