import { TABLE } from './table';
import { runRow, useMatrix } from './matrix';

/** The authorization matrix, GraphQL half (see matrix.ts and matrix.rest.test.ts). */
const m = useMatrix();

test.each(TABLE.filter((row) => !row.rest).map((row) => [row.op, row] as const))('%s', async (_op, row) => {
  expect(await runRow(m, row)).toEqual([]);
});
