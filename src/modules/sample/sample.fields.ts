import type { FieldProblem } from '../../core/errors';
import { checkTextSpec } from '../dataset/dataset.fields';

/** The text fields of a sample, with their wire names and limits. */
export const SAMPLE_TEXT = {
  sampleName: { wire: 'sample_name', max: 500 },
  sampleType: { wire: 'sample_type', max: 200 },
  description: { wire: 'description', max: 100_000 },
  timestamp: { wire: 'timestamp', max: 64 },
} as const;
export type SampleTextField = keyof typeof SAMPLE_TEXT;
export const SAMPLE_TEXT_FIELDS = Object.keys(SAMPLE_TEXT) as SampleTextField[];
export type SampleText = Partial<Record<SampleTextField, string | null>>;

/** Problems with the text fields of a sample input (types, lengths, the timestamp format). */
export function checkSampleText(input: Partial<Record<SampleTextField, unknown>>): FieldProblem[] {
  return checkTextSpec(SAMPLE_TEXT, input);
}

export function sampleTextValues(input: SampleText): SampleText {
  const out: SampleText = {};
  for (const key of SAMPLE_TEXT_FIELDS) if (input[key] !== undefined) out[key] = input[key];
  return out;
}
