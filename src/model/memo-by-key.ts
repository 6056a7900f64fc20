/**
 * `compute` remembered per key, for a pure function asked again and again
 * with a few keys (a site's languages, locale tags; a build's scope keys):
 * each value is computed once for as long as the memo lives. The memo never
 * forgets: only for keys of a small set, or a memo that lives no longer than
 * what its keys come from (src/outputs/feed-scopes.ts, one a build).
 */
export function memoByKey<K, V>(compute: (key: K) => V): (key: K) => V {
  const values = new Map<K, V>();
  return (key) => {
    let value = values.get(key);
    if (value === undefined) {
      value = compute(key);
      values.set(key, value);
    }
    return value;
  };
}
