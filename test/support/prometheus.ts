/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4): every line must be
 * a `# HELP`, a `# TYPE` or a sample of a declared family, or reading fails.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  help: string;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;
const SUFFIXES: Record<string, string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
  counter: ['', '_total'],
  gauge: [''],
  untyped: [''],
};

function parseValue(raw: string, line: string): number {
  if (raw === '+Inf') return Infinity;
  if (raw === '-Inf') return -Infinity;
  if (raw === 'NaN') return NaN;
  const n = Number(raw);
  if (raw === '' || Number.isNaN(n)) throw new Error(`bad sample value in: ${line}`);
  return n;
}

function parseLabels(raw: string | undefined, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  if (!raw) return labels;
  LABEL.lastIndex = 0;
  let consumed = 0;
  for (let m = LABEL.exec(raw); m; m = LABEL.exec(raw)) {
    labels[m[1]] = m[2].replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    consumed = LABEL.lastIndex;
  }
  if (consumed !== raw.length) throw new Error(`bad labels in: ${line}`);
  return labels;
}

export function parsePrometheus(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = new RegExp(`^# (HELP|TYPE) (${NAME}) (.*)$`).exec(line);
    if (meta) {
      const family = families.get(meta[2]) ?? { name: meta[2], type: 'untyped', help: '', samples: [] };
      if (meta[1] === 'HELP') family.help = meta[3];
      else if (SUFFIXES[meta[3]]) family.type = meta[3];
      else throw new Error(`unknown metric type in: ${line}`);
      families.set(meta[2], family);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const owner = [...families.values()].find((f) =>
      SUFFIXES[f.type].some((suffix) => `${f.name}${suffix}` === m[1]),
    );
    if (!owner) throw new Error(`sample of an undeclared family: ${line}`);
    owner.samples.push({ name: m[1], labels: parseLabels(m[2], line), value: parseValue(m[3], line) });
  }
  return families;
}

/** The samples of `family` (optionally one suffix, e.g. `_count`) whose labels include `labels`. */
export function samples(
  families: Map<string, Family>,
  family: string,
  labels: Record<string, string> = {},
  suffix = '',
): Sample[] {
  const f = families.get(family);
  if (!f) throw new Error(`no metric family ${family}`);
  return f.samples.filter(
    (s) => s.name === `${family}${suffix}` && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

/** The sum of the matching samples' values. */
export function total(
  families: Map<string, Family>,
  family: string,
  labels: Record<string, string> = {},
  suffix = '',
): number {
  return samples(families, family, labels, suffix).reduce((sum, s) => sum + s.value, 0);
}
