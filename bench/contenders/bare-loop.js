// The limit: a bare loop that fetches every chunk from the same in-memory backends (same chunk
// size, same answers) and reads each item's merge-key fields once, doing nothing else. No pager can
// do less per item: it must at least read these fields.

/**
 * Reads every item of every source once; returns `{ items, checksum }` (the checksum keeps the reads
 * from being optimised away).
 */
export function bareLoop(answerers, chunkLimit) {
  let items = 0;
  let checksum = 0;
  for (let s = 0; s < answerers.length; s++) {
    let token = "";
    do {
      const r = answerers[s]({ requestId: 0, sourceIndex: s, pageToken: token, limit: chunkLimit });
      const list = r.items ?? r.availablePackageSummaries;
      for (let i = 0; i < list.length; i++) {
        const it = list[i];
        const ref = it.availablePackageRef;
        checksum += it.name.length + ref.plugin.name.length + ref.context.cluster.length + ref.context.namespace.length + ref.identifier.length;
      }
      items += list.length;
      token = r.items ? r.metadata.continue : r.nextPageToken;
    } while (token);
  }
  return { items, checksum };
}
