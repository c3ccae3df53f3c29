import { Ajv2019 } from 'ajv/dist/2019';
import DATACITE_SCHEMA from './schemas/datacite-v4.6.json';

// the schema's own formats (year, date-range …) are not ajv's: formats are not checked
// (and its draft-04 style `id` is renamed, as ajv reads only `$id`)
const { id: schemaId, ...schemaBody } = DATACITE_SCHEMA;
const validate = new Ajv2019({ strict: false, validateFormats: false, allErrors: true }).compile({
  ...schemaBody,
  $id: schemaId,
});

/**
 * The problems of DataCite JSON attributes against the DataCite JSON schema
 * (schemas/datacite-v4.6.json, from inveniosoftware/datacite, MIT): the tests check the JSON
 * export with it, a tool the project did not write (the service itself validates the kernel-4 XML
 * against the DataCite 4.7 XSD before anything is sent: docs/publications.md).
 */
export function dataciteJsonProblems(attributes: unknown): { field: string; message: string }[] {
  if (validate(attributes)) return [];
  return (validate.errors ?? []).map((e) => ({
    field: e.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'record',
    message: e.message ?? 'is not valid',
  }));
}

/** Throws naming the first field at fault unless `attributes` is valid DataCite JSON. */
export function assertValidDatacite(attributes: unknown): void {
  const problems = dataciteJsonProblems(attributes);
  if (problems.length)
    throw new Error(
      `The DataCite record is not valid: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
    );
}
