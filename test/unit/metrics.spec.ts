import { registry } from '../../src/core/metrics/registry';
// registers the pool and queue gauges, as the service does
import '../../src/core/metrics/database';

/**
 * A promtool-like check of every family this process serves: names in snake_case with help,
 * counters ending in `_total` and nothing else doing so, the suffixes of histograms and summaries
 * left to them.
 */
describe('metric names', () => {
  let families: { name: string; type: string; help: string }[];
  beforeAll(async () => {
    families = (await registry.getMetricsAsJSON()).map((m) => ({
      name: m.name,
      type: String(m.type),
      help: m.help,
    }));
  });

  test('the registry holds the service families and prom-client defaults', () => {
    const names = families.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['catalog_http_requests_total', 'catalog_db_pool_waiting']));
    expect(names).toEqual(
      expect.arrayContaining(['catalog_nodejs_active_handles_all', 'catalog_process_cpu_seconds_total']),
    );
  });

  test('gauges never end in _total; counters always do', () => {
    const wrong = families.filter((f) => (f.type === 'counter') !== f.name.endsWith('_total'));
    expect(wrong.map((f) => `${f.type} ${f.name}`)).toEqual([]);
  });

  test('no family but a histogram or summary ends in _bucket, _count or _sum; names are snake_case with help', () => {
    const reserved = families.filter(
      (f) => !['histogram', 'summary'].includes(f.type) && /_(bucket|count|sum)$/.test(f.name),
    );
    expect(reserved.map((f) => f.name)).toEqual([]);
    expect(families.filter((f) => !/^[a-z_][a-z0-9_]*$/.test(f.name)).map((f) => f.name)).toEqual([]);
    expect(families.filter((f) => !f.help.trim()).map((f) => f.name)).toEqual([]);
  });

  test('the renamed gauges report what prom-client counts', async () => {
    const text = await registry.metrics();
    const value = /^catalog_nodejs_active_handles_all (\d+)$/m.exec(text)?.[1];
    expect(Number(value)).toBeGreaterThan(0);
    expect(text).not.toMatch(/^# TYPE \S+_total gauge$/m);
  });
});
