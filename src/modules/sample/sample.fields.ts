import type { TextValues } from '../owned-record/owned-record.fields';

/** The text fields of a sample, with their wire names and limits. */
export const SAMPLE_TEXT = {
  sampleName: { wire: 'sample_name', max: 500, name: true },
  sampleType: { wire: 'sample_type', max: 200 },
  description: { wire: 'description', max: 100_000 },
  timestamp: { wire: 'timestamp', max: 64 },
} as const;
export type SampleTextField = keyof typeof SAMPLE_TEXT;
export type SampleText = TextValues<SampleTextField>;
