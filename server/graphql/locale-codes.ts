/**
 * The locale codes `/graphql` checks `I18NLocaleCode` values against, read again only after a
 * write: kept with the database's change stamp (`Database.changeStamp`, which changes whenever
 * anything may have been written, by this process or another), so a request does not spend a
 * statement on them when nothing changed. A null stamp (PostgreSQL: changes not seen here) reads
 * them every time. The stamp is taken before the read: a write during it makes the next call read again.
 */
export function stampedLocaleCodes(args: { readonly stamp: () => string | null; readonly read: () => Promise<readonly string[]> }): () => Promise<readonly string[]> {
  let kept: { readonly stamp: string; readonly codes: Promise<readonly string[]> } | null = null;
  return () => {
    const stamp = args.stamp();
    if (stamp !== null && kept !== null && kept.stamp === stamp) return kept.codes;
    const codes = args.read();
    if (stamp === null) return codes;
    const entry = { stamp, codes };
    kept = entry;
    // A failed read is not kept: the next request reads again.
    codes.catch(() => {
      if (kept === entry) kept = null;
    });
    return codes;
  };
}
