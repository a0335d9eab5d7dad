// What every axis list under core/variants/ makes of its rows: their names in the list's order (the
// setting's options) and the rows by name; and the row a name picks, refusing an unknown one.

interface Named {
  readonly name: string;
}

/** The rows' names, in the list's order: a setting's options (a non-empty tuple, as config.ts takes). */
export function namesOf<Rows extends readonly [Named, ...Named[]]>(
  rows: Rows,
): readonly [Rows[number]['name'], ...Rows[number]['name'][]] {
  return rows.map((r) => r.name) as unknown as readonly [Rows[number]['name'], ...Rows[number]['name'][]];
}

/** The rows by their names. */
export function byName<Rows extends readonly Named[]>(
  rows: Rows,
): Readonly<Record<Rows[number]['name'], Rows[number]>> {
  return Object.fromEntries(rows.map((r) => [r.name, r])) as Readonly<
    Record<Rows[number]['name'], Rows[number]>
  >;
}

/** The row of `table` that `name` names; `what` names the axis in the error for an unknown one. */
export function rowOf<R>(table: Readonly<Record<string, R>>, name: string, what: string): R {
  const row = table[name];
  if (!row) throw new Error(`unknown ${what} "${name}"`);
  return row;
}
