import { TABLE } from './table';
import { runRow, servedOperations, useMatrix } from './matrix';

/**
 * The authorization matrix, REST half (see matrix.ts; the GraphQL half is matrix.graphql.test.ts).
 * The first test makes the table complete: every route registered in Express and every Query
 * and Mutation field of the schema needs exactly one row.
 */
const m = useMatrix();

test('the table has exactly one row per REST route and GraphQL operation', async () => {
  const served = await servedOperations(m.t);
  const rows = TABLE.map((r) => r.op);
  expect(served.filter((op) => !rows.includes(op))).toEqual([]); // operations without a row
  expect(rows.filter((op) => !served.includes(op))).toEqual([]); // rows naming nothing served
  expect(rows.filter((op, i) => rows.indexOf(op) !== i)).toEqual([]); // rows given twice
  // each REST row requests a path its route matches
  for (const row of TABLE.filter((r) => r.rest)) {
    const pattern = row.op.split(' ')[1].replace(/:\w+/g, '[^/]+').replace(/\*\w+/g, '.+');
    expect(`${row.op} -> ${row.rest!(m.worlds.private, {}).path}`).toMatch(new RegExp(` -> ${pattern}$`));
  }
});

test.each(TABLE.filter((row) => row.rest).map((row) => [row.op, row] as const))('%s', async (_op, row) => {
  expect(await runRow(m, row)).toEqual([]);
});
