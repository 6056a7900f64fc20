/**
 * `compute` remembered per key, for a pure function asked again and again
 * with a few keys (a site's languages, locale tags): each value is computed
 * once per process. Only for keys of a small set: the memo never forgets.
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
