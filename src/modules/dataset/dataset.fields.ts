import { type FieldProblem } from '../../core/errors';
import { checkTextSpec, textKeys, type TextValues } from '../owned-record/owned-record.fields';

/** The dataset fields an update may set (spec 2.1 rule 4), with their wire names and limits. */
export const UPDATABLE = {
  datasetName: { wire: 'dataset_name', max: 500, name: true },
  measurement: { wire: 'measurement', max: 200 },
  dataType: { wire: 'data_type', max: 200 },
  dataFormat: { wire: 'data_format', max: 100 },
  sessionName: { wire: 'session_name', max: 200 },
  timestamp: { wire: 'timestamp', max: 64 },
} as const;
export type TextField = keyof typeof UPDATABLE;
export const TEXT_FIELDS = textKeys(UPDATABLE);
export type DatasetText = TextValues<TextField>;

/** Problems with the text fields of a dataset input. */
export function checkTextFields(input: Partial<Record<TextField, unknown>>): FieldProblem[] {
  return checkTextSpec(UPDATABLE, input);
}

/** Keywords one dataset may carry: the list is read whole (REST and GraphQL), so it is bounded. */
export const DATASET_MAX_KEYWORDS = 100;
