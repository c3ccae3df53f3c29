import { rest } from './http';

/** Small REST helpers for datasets and samples (the records most tests need). */
export async function newDataset(
  base: string,
  key: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await rest(base, 'POST', '/datasets', { key, body: { dataset_name: 'ds', ...body } });
  if (res.status !== 201) throw new Error(`dataset create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.unique_id as string;
}

export async function newSample(
  base: string,
  key: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await rest(base, 'POST', '/samples', { key, body: { sample_name: 'sample', ...body } });
  if (res.status !== 201) throw new Error(`sample create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.unique_id as string;
}
