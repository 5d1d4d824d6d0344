// Today's dashboard approach (Kubeapps' catalog view): every page the backend returns is appended
// to everything loaded so far, the whole list is de-duplicated by `availablePackageRef.identifier`
// (lodash `uniqBy`: first occurrence wins) and re-sorted by lower-cased `displayName`. Its pages come
// from the backend already merged and filtered (the Kubeapps core's offset paging does that), so
// its own cost is the append, the uniq and the sort, and it grows with everything loaded.

/** `uniqBy(list, key)`: the first item of each key, in order. */
function uniqBy(list, key) {
  const seen = new Set();
  const out = [];
  for (let i = 0; i < list.length; i++) {
    const k = key(list[i]);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(list[i]);
    }
  }
  return out;
}

const byIdentifier = (s) => s.availablePackageRef.identifier;
const byLowerDisplayName = (a, b) => {
  const x = a.displayName.toLowerCase();
  const y = b.displayName.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The dashboard's list state. `addPage(items)` returns what it renders: the whole sorted list. */
export class Dashboard {
  /** `loaded`: items of the pages already shown (to start at a depth). */
  constructor(loaded = []) {
    this.loaded = loaded.slice();
    this.visible = [];
  }

  addPage(items) {
    for (let i = 0; i < items.length; i++) this.loaded.push(items[i]);
    this.visible = uniqBy(this.loaded, byIdentifier).sort(byLowerDisplayName);
    return this.visible;
  }
}
