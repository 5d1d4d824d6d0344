// The route's page: Kubeapps' available packages, paged by kubeapps-pager, in Headlamp's own
// components (SectionBox, Loader) and its MUI table parts, through usePager (kubeapps-pager/react).
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
import { usePager } from 'kubeapps-pager/react';
import { useDeferredValue, useMemo, useState } from 'react';
import { PACKAGES_PAGE_PARAM, sourcesOf, useKubeappsConfig } from './config';
import { useLoadOnVisible } from './useLoadOnVisible';

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

/** One package's row; `data-identity` (or `data-late-identity` for a late one) names it for tests. */
function PackageRow({
  summary: s,
  late = false,
}: {
  summary: AvailablePackageSummary;
  late?: boolean;
}) {
  const identity = identityOf(s);
  return (
    <TableRow {...{ [late ? 'data-late-identity' : 'data-identity']: identity }}>
      <TableCell>{s.displayName || s.name}</TableCell>
      <TableCell>{s.latestVersion?.pkgVersion ?? ''}</TableCell>
      <TableCell>{repositoryOf(s)}</TableCell>
      <TableCell>{s.availablePackageRef.context?.namespace ?? ''}</TableCell>
      <TableCell>{s.availablePackageRef.plugin?.name ?? ''}</TableCell>
      <TableCell>{s.shortDescription ?? ''}</TableCell>
    </TableRow>
  );
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
  // The position (`<index>.<token>` of the last page loaded) goes into the URL's search under
  // its own parameter name, with history.replaceState: a reload or a shared link reopens that
  // page, and "Show earlier packages" scrolls back from it (usePager's PageWindow).
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
  } = usePager(options, fetchChunk, { url: { param: PACKAGES_PAGE_PARAM } });

  // The next page whenever the sentinel under the table is in view (a page of late items only
  // leaves items.length as it was: late.length counts too).
  const sentinel = useLoadOnVisible(loadMore, !done && !error, `${items.length}/${late.length}`);

  const state = error ? 'error' : loading ? 'loading' : done ? 'done' : 'idle';
  return (
    <SectionBox title="Kubeapps packages">
      <Box
        data-testid="kubeapps-packages"
        data-state={state}
        data-count={items.length}
        data-late={late.length}
        data-first-index={firstIndex}
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
            action={<Button onClick={() => retryUnreachable()}>Retry</Button>}
          >
            Not shown: {unreachable.map(u => `${u.source} (HTTP ${u.status})`).join(', ')}
            {unreachable.length === sources.length &&
              ` — no source answers at ${config.baseUrl}: check the kubeapps-apis base URL in Settings → Plugins.`}
          </Alert>
        )}
        {late.length > 0 && (
          <Alert
            severity="info"
            data-testid="kubeapps-late"
            data-count={late.length}
            action={<Button onClick={reset}>Show in place</Button>}
          >
            {late.length} more {late.length === 1 ? 'package' : 'packages'} arrived (a source back):
            they sort among the rows already shown, listed below the list; Show in place reads the
            list again from the top.
          </Alert>
        )}
        {!atStart && (
          <Button
            onClick={() => void loadPrevious()}
            disabled={loading}
            data-testid="kubeapps-previous"
          >
            Show earlier packages (this list starts at page {firstIndex + 1})
          </Button>
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
              {items.map(s => (
                <PackageRow key={identityOf(s)} summary={s} />
              ))}
            </TableBody>
          </Table>
        )}
        {error && (
          <Alert
            severity="error"
            data-testid="kubeapps-error"
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
                data-testid="kubeapps-more"
              >
                {loading ? 'Loading…' : 'Load more'}
              </Button>
            )}
          </div>
        )}
        {done && items.length === 0 && late.length === 0 && <Box>No packages.</Box>}
        {late.length > 0 && (
          <Table
            size="small"
            aria-label="Packages that arrived late"
            data-testid="kubeapps-late-rows"
          >
            <TableHead>
              <TableRow>
                <TableCell colSpan={6}>Arrived while the list was read</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {late.map(s => (
                <PackageRow key={identityOf(s)} summary={s} late />
              ))}
            </TableBody>
          </Table>
        )}
      </Box>
    </SectionBox>
  );
}
