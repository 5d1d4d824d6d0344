// The infinite list both routes show (packages, pods across clusters): a search field, the
// sources the list lacks with Retry, the late items announced and shown apart, Show earlier (a
// reload or a link opens a later page), the rows in the pager's order, Load more and its
// sentinel. Everything a list of its own has is in its props: its items' columns and identity,
// its nouns and its test ids.
//
// Why MUI's Table and not CommonComponents' SimpleTable or Table: both paginate on the client
// over the `data` they are given (SimpleTable slices it by `rowsPerPage` even with
// `showPagination={false}`, and re-sorts it), which is what the pager is there to replace; an
// infinite list needs every loaded row in the pager's order, so the rows are MUI's TableRow,
// the parts SimpleTable itself renders, from the same `@mui/material` Headlamp shares with plugins.
import { Loader } from '@kinvolk/headlamp-plugin/lib/CommonComponents';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import type { UsePagerResult } from 'kubeapps-pager/react';
import type { ReactNode } from 'react';
import { useLoadOnVisible } from './useLoadOnVisible';

/** A column: its header and what a row shows in it. */
export interface Column<T> {
  header: string;
  cell: (item: T) => ReactNode;
}

export interface PagedListProps<T> {
  /** The list's `data-testid`; its parts' are `<testId>-search`, `-unreachable`, `-late`, `-previous`, `-error`, `-more`, `-late-rows`. */
  testId: string;
  /** The table's accessible name. */
  title: string;
  /** What an item is called: `['package', 'packages']`. */
  noun: [one: string, many: string];
  searchLabel: string;
  query: string;
  onQuery: (query: string) => void;
  /** usePager's answer for the list. */
  pager: UsePagerResult<T>;
  columns: Column<T>[];
  /** Unique in the list (the pager's identity of an item): the React key and the rows' `data-identity`. */
  identity: (item: T) => string;
  /** Why items may come late (`a source back`). */
  lateCause: string;
  /** Said after the unreachable sources when none answers. */
  noneAnswers?: string;
  /** The number of sources, for `noneAnswers`. */
  sourceCount?: number;
}

/** The infinite list of `pager`'s items; see the top of this file. */
export function PagedList<T>(props: PagedListProps<T>) {
  const { testId, noun, pager, columns, identity } = props;
  const { items, late, done, loading, error, unreachable, atStart, firstIndex } = pager;
  const { loadMore, loadPrevious, retryUnreachable, reset } = pager;
  // The next page whenever the sentinel under the table is in view (a page of late items only
  // leaves items.length as it was: late.length counts too).
  const sentinel = useLoadOnVisible(loadMore, !done && !error, `${items.length}/${late.length}`);
  const state = error ? 'error' : loading ? 'loading' : done ? 'done' : 'idle';
  const many = noun[1];
  // One row; `data-identity` (or `data-late-identity` for a late one) names it for tests.
  const row = (item: T, isLate: boolean) => (
    <TableRow
      key={identity(item)}
      {...{ [isLate ? 'data-late-identity' : 'data-identity']: identity(item) }}
    >
      {columns.map(c => (
        <TableCell key={c.header}>{c.cell(item)}</TableCell>
      ))}
    </TableRow>
  );
  return (
    <Box
      data-testid={testId}
      data-state={state}
      data-count={items.length}
      data-late={late.length}
      data-first-index={firstIndex}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      <TextField
        label={props.searchLabel}
        size="small"
        value={props.query}
        onChange={e => props.onQuery(e.target.value)}
        inputProps={{ 'data-testid': `${testId}-search` }}
      />
      {unreachable.length > 0 && (
        <Alert
          severity="warning"
          data-testid={`${testId}-unreachable`}
          action={<Button onClick={() => retryUnreachable()}>Retry</Button>}
        >
          Not shown: {unreachable.map(u => `${u.source} (HTTP ${u.status})`).join(', ')}
          {props.noneAnswers &&
            unreachable.length === props.sourceCount &&
            ` — ${props.noneAnswers}`}
        </Alert>
      )}
      {late.length > 0 && (
        <Alert
          severity="info"
          data-testid={`${testId}-late`}
          data-count={late.length}
          action={<Button onClick={reset}>Show in place</Button>}
        >
          {late.length} more {late.length === 1 ? noun[0] : many} arrived ({props.lateCause}): they
          sort among the rows already shown, listed below the list; Show in place reads the list
          again from the top.
        </Alert>
      )}
      {!atStart && (
        <Button
          onClick={() => void loadPrevious()}
          disabled={loading}
          data-testid={`${testId}-previous`}
        >
          Show earlier {many} (this list starts at page {firstIndex + 1})
        </Button>
      )}
      {items.length === 0 && loading ? (
        <Loader title={`Loading ${many}`} />
      ) : (
        <Table size="small" aria-label={props.title}>
          <TableHead>
            <TableRow>
              {columns.map(c => (
                <TableCell key={c.header}>{c.header}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>{items.map(item => row(item, false))}</TableBody>
        </Table>
      )}
      {error && (
        <Alert
          severity="error"
          data-testid={`${testId}-error`}
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
              data-testid={`${testId}-more`}
            >
              {loading ? 'Loading…' : 'Load more'}
            </Button>
          )}
        </div>
      )}
      {done && items.length === 0 && late.length === 0 && <Box>No {many}.</Box>}
      {late.length > 0 && (
        <Table
          size="small"
          aria-label={`${many[0].toUpperCase()}${many.slice(1)} that arrived late`}
          data-testid={`${testId}-late-rows`}
        >
          <TableHead>
            <TableRow>
              <TableCell colSpan={columns.length}>Arrived while the list was read</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>{late.map(item => row(item, true))}</TableBody>
        </Table>
      )}
    </Box>
  );
}
