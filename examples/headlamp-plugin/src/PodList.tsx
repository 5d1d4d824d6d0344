// The "Pods across clusters" route: the pods of every cluster Headlamp knows, merged in one list
// in the apiserver's order (namespace/name, ties by cluster), paged by kubeapps-pager through
// Headlamp's own proxy to each cluster's apiserver (`<backend>/clusters/<name>/api/v1/pods`, with
// `limit` and `continue`: one chunk per cluster for page 1, whatever the clusters' sizes).
import { getHeadlampAPIHeaders, K8s } from '@kinvolk/headlamp-plugin/lib';
import { Loader, SectionBox } from '@kinvolk/headlamp-plugin/lib/CommonComponents';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { type FetchChunk, kubernetesFetcher, type KubernetesList } from 'kubeapps-pager';
import { usePager } from 'kubeapps-pager/react';
import { useDeferredValue, useMemo, useState } from 'react';
import { PODS_PAGE_PARAM, useKubeappsConfig } from './config';
import { useLoadOnVisible } from './useLoadOnVisible';

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
  const {
    items,
    late,
    done,
    loading,
    error,
    unreachable,
    atStart,
    firstIndex,
    loadMore,
    loadPrevious,
    retryUnreachable,
    reset,
  } = usePager(options, fetchChunk, { url: { param: PODS_PAGE_PARAM } });
  const sentinel = useLoadOnVisible(loadMore, !done && !error, `${items.length}/${late.length}`);

  const state = error ? 'error' : loading ? 'loading' : done ? 'done' : 'idle';
  return (
    <Box
      data-testid="cluster-pods"
      data-state={state}
      data-count={items.length}
      data-late={late.length}
      data-first-index={firstIndex}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      <TextField
        label="Search pod names"
        size="small"
        value={query}
        onChange={e => setQuery(e.target.value)}
        inputProps={{ 'data-testid': 'cluster-pods-search' }}
      />
      {unreachable.length > 0 && (
        <Alert
          severity="warning"
          data-testid="cluster-pods-unreachable"
          action={<Button onClick={() => retryUnreachable()}>Retry</Button>}
        >
          Not shown: {unreachable.map(u => `${u.source} (HTTP ${u.status})`).join(', ')}
        </Alert>
      )}
      {late.length > 0 && (
        <Alert
          severity="info"
          data-testid="cluster-pods-late"
          data-count={late.length}
          action={<Button onClick={reset}>Show in place</Button>}
        >
          {late.length} more {late.length === 1 ? 'pod' : 'pods'} arrived (a cluster back): listed
          below the list; Show in place reads the list again from the top.
        </Alert>
      )}
      {!atStart && (
        <Button
          onClick={() => void loadPrevious()}
          disabled={loading}
          data-testid="cluster-pods-previous"
        >
          Show earlier pods (this list starts at page {firstIndex + 1})
        </Button>
      )}
      {items.length === 0 && loading ? (
        <Loader title="Loading pods" />
      ) : (
        <Table size="small" aria-label="Pods across clusters">
          <TableHead>
            <TableRow>
              <TableCell>Namespace</TableCell>
              <TableCell>Name</TableCell>
              <TableCell>Cluster</TableCell>
              <TableCell>Phase</TableCell>
              <TableCell>Node</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map(p => (
              <PodRow key={podIdentity(p)} pod={p} />
            ))}
          </TableBody>
        </Table>
      )}
      {error && (
        <Alert
          severity="error"
          data-testid="cluster-pods-error"
          action={<Button onClick={() => void loadMore()}>Retry</Button>}
        >
          {(error as Error & { code?: string }).code ?? 'ERROR'}: {error.message}
        </Alert>
      )}
      {!done && !error && (
        <div ref={sentinel}>
          {items.length > 0 && (
            <Button
              onClick={() => void loadMore()}
              disabled={loading}
              data-testid="cluster-pods-more"
            >
              {loading ? 'Loading…' : 'Load more'}
            </Button>
          )}
        </div>
      )}
      {done && items.length === 0 && late.length === 0 && <Box>No pods.</Box>}
      {late.length > 0 && (
        <Table size="small" aria-label="Pods that arrived late">
          <TableBody>
            {late.map(p => (
              <PodRow key={podIdentity(p)} pod={p} late />
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}

/** One pod's row; `data-identity` (`data-late-identity` for a late one) names it for tests. */
function PodRow({ pod: p, late = false }: { pod: ClusterPod; late?: boolean }) {
  return (
    <TableRow {...{ [late ? 'data-late-identity' : 'data-identity']: podIdentity(p) }}>
      <TableCell>{p.metadata.namespace ?? ''}</TableCell>
      <TableCell>{p.metadata.name}</TableCell>
      <TableCell>{p.cluster}</TableCell>
      <TableCell>{p.status?.phase ?? ''}</TableCell>
      <TableCell>{p.spec?.nodeName ?? ''}</TableCell>
    </TableRow>
  );
}
