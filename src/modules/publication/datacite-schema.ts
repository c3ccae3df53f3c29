import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError, type FieldProblem } from '../../core/errors';

/**
 * Where the vendored DataCite Metadata Schema 4.7 (kernel-4.7 XSD and its include/ files) is:
 * beside this file when it runs from source (tests), in the source tree when it runs compiled
 * from `dist/src/modules/publication` (tsc copies no .xsd).
 */
export function dataciteSchemaDir(): string {
  const here = path.join(__dirname, 'schemas', 'datacite-4.7');
  if (fs.existsSync(path.join(here, 'metadata.xsd'))) return here;
  const root = path.resolve(__dirname, '..', '..', '..', '..');
  return path.join(root, 'src', 'modules', 'publication', 'schemas', 'datacite-4.7');
}

/**
 * The worker's code, plain JavaScript so it runs the same from `dist` and under jest (libxml2-wasm
 * is an ES module with top-level await: only a real `import()` loads it, which jest's module
 * system cannot do, so it lives in its own thread; validation is CPU work off the event loop,
 * too). It compiles the schema once, then answers `{ id, xml }` with `{ id, problems }`: each
 * problem libxml2 reported, with the XML path (`relatedIdentifiers/relatedIdentifier[2]/@relationType`)
 * of the node at fault.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const ready = (async () => {
  const x = await import(workerData.libxml2);
  const node = await import(workerData.nodejs);
  node.xmlRegisterFsInputProviders();
  const xsd = x.XmlDocument.fromBuffer(fs.readFileSync(workerData.schema), { url: workerData.schemaUrl });
  return { x, validator: x.XsdValidator.fromDoc(xsd) };
})();
function where(doc, xpath, message) {
  const steps = [];
  let at = '';
  for (const part of (xpath || '').split('/').filter(Boolean)) {
    at += '/' + part;
    const n = doc.get(at);
    if (!n) break;
    const index = /\\[(\\d+)\\]$/.exec(part);
    steps.push(n.name);
    // a repeated element: its position among its own kind, from 1
    if (index && n.parent) {
      const before = n.parent.find('*').slice(0, Number(index[1]));
      const same = before.filter((s) => s.name === n.name).length;
      const all = n.parent.find('*').filter((s) => s.name === n.name).length;
      if (all > 1) steps[steps.length - 1] += '[' + same + ']';
    }
  }
  steps.shift(); // the root element, resource
  const attr = /attribute '([^']+)'/.exec(message);
  if (attr) steps.push('@' + attr[1]);
  return steps.join('/') || 'resource';
}
parentPort.on('message', async (m) => {
  try {
    const { x, validator } = await ready;
    let doc;
    try {
      doc = x.XmlDocument.fromString(m.xml, { option: x.ParseOption.XML_PARSE_NONET | x.ParseOption.XML_PARSE_NO_XXE });
    } catch (err) {
      parentPort.postMessage({ id: m.id, problems: [{ field: 'resource', message: String(err.message || err).trim() }] });
      return;
    }
    try {
      validator.validate(doc);
      parentPort.postMessage({ id: m.id, problems: [] });
    } catch (err) {
      const details = err.details || [{ message: String(err.message || err) }];
      const problems = details.map((d) => ({
        field: where(doc, d.xpath, d.message),
        message: String(d.message).replace(/^Element '\\{[^}]*\\}([^']+)'(, attribute '[^']+')?: /, '').trim(),
      }));
      parentPort.postMessage({ id: m.id, problems });
    } finally {
      doc.dispose();
    }
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String(err && err.stack || err) });
  }
});
`;

interface Answer {
  id: number;
  problems?: FieldProblem[];
  error?: string;
}

let worker: Worker | null = null;
let next = 1;
const waiting = new Map<number, { resolve: (p: FieldProblem[]) => void; reject: (e: Error) => void }>();

function thread(): Worker {
  if (worker) return worker;
  const lib = path.dirname(require.resolve('libxml2-wasm'));
  const schema = path.join(dataciteSchemaDir(), 'metadata.xsd');
  const w = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      libxml2: pathToFileURL(path.join(lib, 'index.mjs')).href,
      nodejs: pathToFileURL(path.join(lib, 'nodejs.mjs')).href,
      schema,
      schemaUrl: pathToFileURL(schema).href,
    },
  });
  w.on('message', (a: Answer) => {
    const p = waiting.get(a.id);
    if (!p) return;
    waiting.delete(a.id);
    if (a.error !== undefined) p.reject(new Error(`DataCite schema validation failed: ${a.error}`));
    else p.resolve(a.problems ?? []);
    if (!waiting.size) w.unref();
  });
  const fail = (err: Error) => {
    if (worker === w) worker = null;
    for (const p of waiting.values()) p.reject(err);
    waiting.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => {
    fail(new Error(`the DataCite schema thread stopped (${code})`));
  });
  w.unref();
  worker = w;
  return w;
}

/**
 * Stops the schema thread (the process is closing; like the digest thread): a later check
 * starts another.
 */
export async function stopDataciteSchemaThread(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await w.terminate();
}

/**
 * The problems of a DataCite kernel-4 XML record against the official DataCite Metadata Schema
 * 4.7 (the vendored XSD, validated by libxml2): none when it is valid. Each names the XML path of
 * the element or attribute at fault.
 */
export function dataciteXmlProblems(xml: string): Promise<FieldProblem[]> {
  const w = thread();
  const id = next++;
  return new Promise<FieldProblem[]>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.ref();
    w.postMessage({ id, xml });
  });
}

/**
 * Refuses (422, naming each field at fault) a kernel-4 XML record the DataCite Metadata Schema
 * 4.7 does not accept: what is sent to DataCite, or exported, is checked by this first.
 */
export async function assertValidDataciteXml(xml: string): Promise<void> {
  const problems = await dataciteXmlProblems(xml);
  if (!problems.length) return;
  throw new AppError(
    'VALIDATION',
    `The DataCite record is not valid against the DataCite Metadata Schema 4.7: ${problems[0].field}: ${problems[0].message}`,
    problems.slice(0, 20),
  );
}
