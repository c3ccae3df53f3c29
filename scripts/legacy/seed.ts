import 'reflect-metadata';
import path from 'node:path';
import { loadConfig } from '../../src/core/config';
import { createLogger } from '../../src/core/logger';
import { createOrm, migrate } from '../../src/core/db/orm';
import { ENTITIES } from '../../src/modules/entities';
import { runningEmbeddedUrl } from '../../src/core/db/embedded';
import { createContexts } from '../../src/app';
import { createServices } from '../../src/modules/services';
import { User } from '../../src/modules/user/user.entity';

/**
 * Seeds the state the legacy Python client's integration suite expects (reference §15.1) into
 * the catalog at DATABASE_URL, or into the running embedded service under DATA_DIR: a
 * non-admin user with an ORCID and a fresh API key, the project `crucible-test` with that user
 * as an editor, an instrument whose name contains "micro" operated by that user, and one dataset
 * and one sample in the project. Prints `export CRUCIBLE_API_KEY=...`.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const url = config.databaseUrl ?? runningEmbeddedUrl(path.resolve(config.dataDir));
  if (!url) throw new Error('start the service first (or set DATABASE_URL)');
  const log = createLogger('silent');
  const orm = await createOrm({ clientUrl: url, entities: ENTITIES, poolMax: 2 });
  try {
    await migrate(orm);
    const services = createServices({ config, log });
    const em = orm.em.fork();
    const orcid = process.env.LEGACY_TEST_ORCID ?? '0000-0002-1825-0097';
    const tester =
      (await em.findOne(User, { uniqueId: orcid })) ??
      (await services.user.create(em, {
        uniqueId: orcid,
        username: 'client-tester',
        email: 'client-tester@example.org',
        firstName: 'Client',
        lastName: 'Tester',
      }));
    const admin = await em.findOne(User, { platformRole: 'admin' }, { orderBy: { id: 'asc' } });
    if (!admin) throw new Error('no platform administrator: start the service once first');
    const contexts = createContexts(orm, services, config, log);
    const asAdmin = await contexts.forUser(admin.uniqueId, 'seed');
    const project =
      (await services.project.find(asAdmin.em, 'crucible-test')) ??
      (await services.project.create(asAdmin, {
        projectId: 'crucible-test',
        title: 'Client test project',
        organization: 'Test',
      }));
    await services.projectMember.setMember(
      asAdmin,
      project,
      await asAdmin.em.findOneOrFail(User, { uniqueId: tester.uniqueId }),
      'editor',
    );
    if (!(await services.instrument.find(asAdmin.em, 'Test Microscope'))) {
      await services.instrument.create(asAdmin, {
        instrumentName: 'Test Microscope',
        owner: tester.uniqueId,
        location: 'Lab 1',
      });
    }
    const asTester = await contexts.forUser(tester.uniqueId, 'seed');
    if ((await services.dataset.count(asTester, { projectId: 'crucible-test' })) === 0) {
      await services.dataset.create(asTester, {
        datasetName: 'seeded dataset',
        projectId: 'crucible-test',
        measurement: 'test',
      });
    }
    if ((await services.sample.count(asTester, { projectId: 'crucible-test' })) === 0) {
      await services.sample.create(asTester, {
        sampleName: 'seeded sample',
        projectId: 'crucible-test',
        sampleType: 'test',
      });
    }
    const { secret } = await services.user.issueKey(em, tester, { label: 'client integration suite' });
    process.stdout.write(`export CRUCIBLE_API_KEY=${secret}\n`);
  } finally {
    await orm.close(true);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
