import { cleanContentType, cleanFilename, cleanIngestor } from '../../src/modules/file/filename';
import { globToRegExp } from '../../src/modules/file/download.service';
import { uniqueNames } from '../../src/modules/file/archive';

describe('cleanFilename', () => {
  test.each([
    ['data.h5', 'data.h5'],
    ['/abs/path/data.h5', 'data.h5'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\run 1.csv', 'run 1.csv'],
    ['  spaced.txt  ', 'spaced.txt'],
    ['.hidden', '.hidden'],
  ])('%s -> %s', (raw, expected) => {
    expect(cleanFilename(raw)).toBe(expected);
  });

  test.each(['', '   ', '..', '.', 'dir/', 'a/..', 'bad\u0000name', 'x'.repeat(256), 42, null])(
    '%p is refused',
    (raw) => {
      expect(() => cleanFilename(raw)).toThrow(/filename/);
    },
  );
});

test('ingestor names and content types', () => {
  expect(cleanIngestor(undefined)).toBeNull();
  expect(cleanIngestor('ScopeFoundryH5Ingestor')).toBe('ScopeFoundryH5Ingestor');
  expect(() => cleanIngestor('rm -rf /')).toThrow(/ingestor/);
  expect(cleanContentType('Image/PNG')).toBe('image/png');
  expect(cleanContentType('not a type')).toBe('application/octet-stream');
  expect(cleanContentType(undefined)).toBe('application/octet-stream');
});

test('include patterns are shell globs over the whole name', () => {
  const m = (p: string, name: string) => globToRegExp(p).test(name);
  expect(m('*.h5', 'scan.h5')).toBe(true);
  expect(m('*.h5', 'scan.h5.bak')).toBe(false);
  expect(m('scan?.h5', 'scan1.h5')).toBe(true);
  expect(m('[ab]*.txt', 'b.txt')).toBe(true);
  expect(m('[!ab]*.txt', 'b.txt')).toBe(false);
  expect(m('a+b(1).txt', 'a+b(1).txt')).toBe(true);
});

test('archive names are made unique', () => {
  expect(uniqueNames(['a.h5', 'b', 'a.h5', 'a.h5', 'b', 'a (2).h5'])).toEqual([
    'a.h5',
    'b',
    'a (2).h5',
    'a (3).h5',
    'b (2)',
    'a (2) (2).h5',
  ]);
});
