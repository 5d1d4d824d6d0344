// The route's page: Kubeapps' available packages, paged by kubeapps-pager, in Headlamp's own
// components (SectionBox, Loader) and its MUI table parts.
//
// Why MUI's Table and not CommonComponents' SimpleTable or Table: both paginate on the client
// over the `data` they are given (SimpleTable slices it by `rowsPerPage` even with
// `showPagination={false}`, and re-sorts it), which is what the pager is there to replace; an
// infinite list needs every loaded row in the pager's order, so the rows are MUI's TableRow,
// the parts SimpleTable itself renders, from the same `@mui/material` Headlamp shares with plugins.
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
import { type AvailablePackageSummary, kubeappsFetcher } from 'kubeapps-pager';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { sourcesOf, useKubeappsConfig } from './config';
import { usePackagePager } from './usePackagePager';

/** `plugin/cluster/namespace/identifier`: unique in a list (the pager drops duplicates by it), a safe React key. */
export function identityOf(s: AvailablePackageSummary): string {
  const ref = s.availablePackageRef;
  return `${ref.plugin?.name ?? ''}/${ref.context?.cluster ?? ''}/${ref.context?.namespace ?? ''}/${
    ref.identifier
  }`;
}

/** The part of an identifier before the first `/` (a Helm chart's repository), if any. */
function repositoryOf(s: AvailablePackageSummary): string {
  const id = s.availablePackageRef.identifier;
  const slash = id.indexOf('/');
  return slash > 0 ? id.slice(0, slash) : '';
}

export function PackageList() {
  const config = useKubeappsConfig();
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  // The fetcher must be stable for the hook: a new one only when the base URL changes.
  const fetchChunk = useMemo(() => kubeappsFetcher({ baseUrl: config.baseUrl }), [config.baseUrl]);
  const sources = sourcesOf(config);
  const options = useMemo(
    () => ({
      sources,
      pageSize: config.pageSize,
      sort: 'displayName' as const,
      filter: { query: deferredQuery },
    }),
    // sources is derived from config: its content is the dependency
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [JSON.stringify(sources), config.pageSize, deferredQuery]
  );
  const { items, done, loading, error, unreachable, loadMore, retryUnreachable } = usePackagePager(
    options,
    fetchChunk
  );

  // Load the next page whenever the sentinel under the table is in view, also right after a page
  // arrived (observing again reports the current state).
  const sentinel = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const target = sentinel.current;
    if (done || error || !target) return;
    const observer = new IntersectionObserver(([entry]) => entry.isIntersecting && loadMore());
    observer.observe(target);
    return () => observer.disconnect();
  }, [loadMore, done, error, items.length]);

  const state = error ? 'error' : loading ? 'loading' : done ? 'done' : 'idle';
  return (
    <SectionBox title="Kubeapps packages">
      <Box
        data-testid="kubeapps-packages"
        data-state={state}
        data-count={items.length}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
      >
        <TextField
          label="Search"
          size="small"
          value={query}
          onChange={e => setQuery(e.target.value)}
          inputProps={{ 'data-testid': 'kubeapps-search' }}
        />
        {unreachable.length > 0 && (
          <Alert
            severity="warning"
            data-testid="kubeapps-unreachable"
            action={<Button onClick={retryUnreachable}>Retry</Button>}
          >
            Not shown: {unreachable.map(u => `${u.source} (HTTP ${u.status})`).join(', ')}
            {unreachable.length === sources.length &&
              ` — no source answers at ${config.baseUrl}: check the kubeapps-apis base URL in Settings → Plugins.`}
          </Alert>
        )}
        {items.length === 0 && loading ? (
          <Loader title="Loading packages" />
        ) : (
          <Table size="small" aria-label="Kubeapps packages">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Version</TableCell>
                <TableCell>Repository</TableCell>
                <TableCell>Namespace</TableCell>
                <TableCell>Plugin</TableCell>
                <TableCell>Description</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map(s => {
                const identity = identityOf(s);
                return (
                  <TableRow key={identity} data-identity={identity}>
                    <TableCell>{s.displayName || s.name}</TableCell>
                    <TableCell>{s.latestVersion?.pkgVersion ?? ''}</TableCell>
                    <TableCell>{repositoryOf(s)}</TableCell>
                    <TableCell>{s.availablePackageRef.context?.namespace ?? ''}</TableCell>
                    <TableCell>{s.availablePackageRef.plugin?.name ?? ''}</TableCell>
                    <TableCell>{s.shortDescription ?? ''}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
        {error && (
          <Alert
            severity="error"
            data-testid="kubeapps-error"
            action={<Button onClick={loadMore}>Retry</Button>}
          >
            {(error as Error & { code?: string }).code ?? 'ERROR'}: {error.message}
          </Alert>
        )}
        {!done && !error && (
          <div ref={sentinel}>
            {items.length > 0 && (
              <Button onClick={loadMore} disabled={loading} data-testid="kubeapps-more">
                {loading ? 'Loading…' : 'Load more'}
              </Button>
            )}
          </div>
        )}
        {done && items.length === 0 && <Box>No packages.</Box>}
      </Box>
    </SectionBox>
  );
}
