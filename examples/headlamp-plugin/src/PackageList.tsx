// The route's page: Kubeapps' available packages, paged by kubeapps-pager through usePager
// (kubeapps-pager/react), in Headlamp's own components (SectionBox) and the shared PagedList.
import { SectionBox } from '@kinvolk/headlamp-plugin/lib/CommonComponents';
import { type AvailablePackageSummary, kubeappsFetcher } from 'kubeapps-pager';
import { usePager } from 'kubeapps-pager/react';
import { useDeferredValue, useMemo, useState } from 'react';
import { PACKAGES_PAGE_PARAM, sourcesOf, useKubeappsConfig } from './config';
import { type Column, PagedList } from './PagedList';

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

const COLUMNS: Column<AvailablePackageSummary>[] = [
  { header: 'Name', cell: s => s.displayName || s.name },
  { header: 'Version', cell: s => s.latestVersion?.pkgVersion ?? '' },
  { header: 'Repository', cell: repositoryOf },
  { header: 'Namespace', cell: s => s.availablePackageRef.context?.namespace ?? '' },
  { header: 'Plugin', cell: s => s.availablePackageRef.plugin?.name ?? '' },
  { header: 'Description', cell: s => s.shortDescription ?? '' },
];

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
  const pager = usePager(options, fetchChunk, { url: { param: PACKAGES_PAGE_PARAM } });
  return (
    <SectionBox title="Kubeapps packages">
      <PagedList
        testId="kubeapps-packages"
        title="Kubeapps packages"
        noun={['package', 'packages']}
        searchLabel="Search"
        query={query}
        onQuery={setQuery}
        pager={pager}
        columns={COLUMNS}
        identity={identityOf}
        lateCause="a source back"
        noneAnswers={`no source answers at ${config.baseUrl}: check the kubeapps-apis base URL in Settings → Plugins.`}
        sourceCount={sources.length}
      />
    </SectionBox>
  );
}
