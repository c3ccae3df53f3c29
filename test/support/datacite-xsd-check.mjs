// The fake DataCite's own schema check (test/support/datacite-fake.ts), in a worker thread:
// libxml2-wasm is an ES module with top-level await, which jest's module system cannot load. It
// validates a kernel-4 XML record against the vendored DataCite Metadata Schema 4.7 XSD and
// answers `{ id, errors }` (libxml2's messages, empty when valid). Deliberately not the
// service's code (src/modules/publication/datacite-schema.ts): a second, independent reading.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { xmlRegisterFsInputProviders } from 'libxml2-wasm/lib/nodejs.mjs';

xmlRegisterFsInputProviders();
const schema = path.join(
  import.meta.dirname,
  '..',
  '..',
  'src',
  'modules',
  'publication',
  'schemas',
  'datacite-4.7',
  'metadata.xsd',
);
const validator = XsdValidator.fromDoc(
  XmlDocument.fromBuffer(fs.readFileSync(schema), { url: pathToFileURL(schema).href }),
);

parentPort.on('message', ({ id, xml }) => {
  let doc;
  try {
    doc = XmlDocument.fromString(xml);
  } catch (err) {
    parentPort.postMessage({ id, errors: [`not well-formed: ${err.message}`] });
    return;
  }
  try {
    validator.validate(doc);
    const ns = doc.root.namespaceUri;
    const identifier = doc.get('/*/*[local-name()="identifier"]');
    parentPort.postMessage({
      id,
      errors: ns === 'http://datacite.org/schema/kernel-4' ? [] : [`root namespace ${ns}`],
      identifier: identifier
        ? { value: identifier.content, type: identifier.get('@identifierType')?.content }
        : null,
    });
  } catch (err) {
    parentPort.postMessage({
      id,
      errors: (err.details ?? [{ message: err.message }]).map((d) => d.message.trim()),
    });
  } finally {
    doc.dispose();
  }
});
