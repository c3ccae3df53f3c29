// Validates XML documents against the vendored schemas (test/support/xsd, README there) with
// libxml2 (libxml2-wasm, an ES module with top-level await: run as its own process, see
// test/support/xml-schemas.ts). Reads {"schema": "<file in xsd/>", "docs": ["<xml>", …]} on stdin;
// writes [{"ok": true} | {"ok": false, "errors": ["line: message", …]}, …] on stdout.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { XmlDocument, XsdValidator, XmlValidateError } from 'libxml2-wasm';
import { xmlRegisterFsInputProviders } from 'libxml2-wasm/lib/nodejs.mjs';

xmlRegisterFsInputProviders();
const input = JSON.parse(readFileSync(0, 'utf8'));
const xsdPath = path.join(import.meta.dirname, 'xsd', path.basename(input.schema));
const schemaDoc = XmlDocument.fromBuffer(readFileSync(xsdPath), { url: xsdPath });
const validator = XsdValidator.fromDoc(schemaDoc);
const out = input.docs.map((xml) => {
  let doc;
  try {
    doc = XmlDocument.fromString(xml);
  } catch (e) {
    // not well-formed: not valid either
    return {
      ok: false,
      errors: (e.details ?? [{ line: 0, message: String(e) }]).map((d) => `${d.line}: ${d.message.trim()}`),
    };
  }
  try {
    validator.validate(doc);
    return { ok: true };
  } catch (e) {
    if (e instanceof XmlValidateError)
      return { ok: false, errors: e.details.map((d) => `${d.line}: ${d.message.trim()}`) };
    throw e;
  } finally {
    doc.dispose();
  }
});
validator.dispose();
schemaDoc.dispose();
process.stdout.write(JSON.stringify(out));
