import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Validates XML documents against a vendored schema of test/support/xsd (README there) with
 * libxml2 (libxml2-wasm, run as its own process: test/support/xml-validate.mjs). Throws naming
 * the first invalid document, its errors and its beginning.
 */
export function expectSchemaValid(schema: string, docs: string[]): void {
  if (!docs.length) return;
  const out = execFileSync(process.execPath, [path.join(__dirname, 'xml-validate.mjs')], {
    input: JSON.stringify({ schema, docs }),
    maxBuffer: 256 * 1024 * 1024,
  });
  const results = JSON.parse(out.toString()) as { ok: boolean; errors?: string[] }[];
  results.forEach((r, i) => {
    if (!r.ok)
      throw new Error(
        `document ${i} is not valid against ${schema}:\n${(r.errors ?? []).slice(0, 10).join('\n')}\n--- its beginning:\n${docs[i].slice(0, 3000)}`,
      );
  });
}
