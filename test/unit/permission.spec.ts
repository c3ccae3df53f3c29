import fs from 'node:fs';
import {
  ACTION_LEVEL,
  GRANTABLE_PERMISSIONS,
  PERMISSIONS,
  allows,
  higher,
  isGrantable,
  refusal,
  type Action,
} from '../../src/modules/permission/permission';

test('the ladder: each level allows what the levels below allow', () => {
  for (const action of Object.keys(ACTION_LEVEL) as Action[]) {
    const needed = PERMISSIONS.indexOf(ACTION_LEVEL[action]);
    PERMISSIONS.forEach((level, i) => expect(allows(level, action)).toBe(i >= needed));
    expect(allows(null, action)).toBe(false);
  }
  expect(higher('viewer', 'admin')).toBe('admin');
  expect(higher(null, 'viewer')).toBe('viewer');
});

test('owner is never grantable', () => {
  expect(GRANTABLE_PERMISSIONS).not.toContain('owner');
  expect(isGrantable('owner')).toBe(false);
  expect(isGrantable('editor')).toBe(true);
  expect(isGrantable('constructor')).toBe(false);
});

test('refusals name the level needed and the level held', () => {
  expect(refusal('update', 'dataset x', 'contributor')).toBe(
    'You may not update dataset x: it needs editor permission, you hold contributor',
  );
});

test('docs/access-control.md states the same action table', () => {
  const doc = fs.readFileSync('docs/access-control.md', 'utf8');
  for (const [action, level] of Object.entries(ACTION_LEVEL)) {
    expect(doc).toMatch(new RegExp(`^\\| ${level} \\| \`${action}\` \\|`, 'm'));
  }
});
