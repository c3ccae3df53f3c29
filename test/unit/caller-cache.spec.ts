import { CallerCache, noteStatement, writesAuthTables } from '../../src/core/auth/caller-cache';

describe('CallerCache', () => {
  let now = 1_000_000;
  const clock = () => now;

  test('keeps an entry for its TTL, never past the key expiry', () => {
    const cache = new CallerCache<string>(3000, 10, clock);
    cache.set('a', 'alice');
    cache.set('b', 'bob', new Date(now + 1000));
    expect(cache.get('a')).toBe('alice');
    now += 1000;
    expect(cache.get('b')).toBeUndefined(); // its key expired before the TTL ran out
    expect(cache.get('a')).toBe('alice');
    now += 2000;
    expect(cache.get('a')).toBeUndefined();
  });

  test('a value read before the cache was emptied is not kept', () => {
    const cache = new CallerCache<string>(3000, 10, clock);
    const before = cache.stamp();
    cache.clear(); // a write came in while the value was being read
    cache.set('a', 'stale', null, before);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 'fresh', null, cache.stamp());
    expect(cache.get('a')).toBe('fresh');
    expect(writesAuthTables('delete from access_grant where resource_id = $1')).toBe(true);
  });

  test('holds at most maxEntries, dropping the oldest; TTL 0 caches nothing', () => {
    const cache = new CallerCache<number>(3000, 2, clock);
    for (const k of ['a', 'b', 'c']) cache.set(k, 1);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 1, 1]);
    const off = new CallerCache<number>(0, 2, clock);
    off.set('a', 1);
    expect(off.get('a')).toBeUndefined();
  });

  test('a write to an authentication table empties every cache, and so does the commit after it', () => {
    const one = new CallerCache<number>(3000, 10, clock);
    const two = new CallerCache<number>(3000, 10, clock);
    one.set('a', 1);
    two.set('b', 2);
    noteStatement('select * from api_key where hash = $1');
    noteStatement('update "dataset" set "public" = $1');
    expect([one.size, two.size]).toEqual([1, 1]);
    noteStatement('update "api_key" set "revoked_at" = $1 where "unique_id" = $2');
    expect([one.size, two.size]).toEqual([0, 0]);
    one.set('a', 1); // read again before the writing transaction commits
    noteStatement('commit');
    expect(one.size).toBe(0);
    one.set('a', 1);
    noteStatement('commit'); // an unrelated commit keeps the cache
    expect(one.size).toBe(1);
  });

  test.each([
    ['update "app_user" set "disabled_at" = $1', true],
    ['insert into "project_member" ("project_mfid") values ($1)', true],
    ['delete from "access_group_member" where "group_id" = $1', true],
    ['update project set owner_id = $1', true],
    ['with x as (select 1) delete from api_key where user_id = $1', true],
    ['insert into "project_text" values ($1)', false],
    // authentication's own bookkeeping
    ['update "api_key" set "last_used_at" = $1 where "unique_id" = $2', false],
    ['update "api_key" set "last_used_at" = ? where "unique_id" = ?', false],
    [`update "api_key" set "last_used_at" = '2026-11-24T12:10:08.173Z' where "unique_id" = 'x'`, false],
    [`update "api_key" set "last_used_at" = 'x', "revoked_at" = 'y' where "unique_id" = 'x'`, true],
    ['update "api_key" set "last_used_at" = $1, "revoked_at" = $2 where "unique_id" = $3', true],
    ['update "dataset" set "project_mfid" = $1', false],
    ['select * from app_user', false],
  ])('writesAuthTables(%s) is %s', (sql, expected) => {
    expect(writesAuthTables(sql)).toBe(expected);
  });
});
