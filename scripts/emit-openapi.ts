import fs from 'node:fs';
import { apiDocument } from '../src/modules/routes';

/** Writes openapi.json, the OpenAPI document of the REST shim (checked by check:drift). */
export function openapiText(): string {
  return `${JSON.stringify(apiDocument(), null, 2)}\n`;
}

if (require.main === module) {
  fs.writeFileSync('openapi.json', openapiText());
  console.log('Wrote openapi.json');
}
