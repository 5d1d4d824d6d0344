// The infinite list's trigger: calls `loadMore` whenever the element the returned ref is set on
// (a sentinel under the table) is in view.
import { useEffect, useRef } from 'react';

/**
 * A ref for the sentinel; while `active`, `loadMore()` runs when it is in view. `pageKey` changes
 * with every page that arrived (e.g. the count of rows and late items): observing again reports
 * the current state, so a sentinel still in view after a page asks for the next one.
 */
export function useLoadOnVisible(loadMore: () => unknown, active: boolean, pageKey: unknown) {
  const sentinel = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const target = sentinel.current;
    if (!active || !target) return;
    const observer = new IntersectionObserver(([entry]) => entry.isIntersecting && loadMore());
    observer.observe(target);
    return () => observer.disconnect();
  }, [loadMore, active, pageKey]);
  return sentinel;
}
