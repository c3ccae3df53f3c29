import { loadUnitFunction, quantityOf } from '../../src/modules/metadata-store/metadata-quantities';

/**
 * The quantity parser builds mathjs's unit function alone (metadata-quantities.ts): it must answer
 * exactly as the full library does, for every unit a facility writes and for what is no unit.
 */
const UNITS = [
  'degC',
  'degF',
  'K',
  'mbar',
  'bar',
  'psi',
  'Torr',
  'mmHg',
  'atm',
  'eV',
  'keV',
  'J/(mol K)',
  'cal',
  'um',
  'µm',
  'μm',
  'nm',
  'Å',
  'angstrom',
  'mm^2',
  'cm^-1',
  'L',
  'mL',
  'ml',
  'mol/L',
  'g/cm^3',
  'Ω',
  'ohm',
  'V',
  'mA',
  'W',
  'T',
  'Hz',
  'kHz',
  'GHz',
  'rpm',
  'rad',
  'deg',
  's',
  'min',
  'h',
  'kg m/s^2',
  'N m',
  '1/s',
  'samples',
  'furlongs per fortnight',
  '',
];

test('the unit function alone answers as the whole of mathjs does', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the whole library, to compare
  const full = require('mathjs') as typeof import('mathjs');
  const alone = loadUnitFunction();
  const read = (make: (value: number, text: string) => import('mathjs').Unit, text: string): unknown => {
    try {
      const u = make(2.5, text);
      return [u.toSI().toJSON(), u.dimensions];
    } catch (e) {
      return `error: ${(e as Error).message}`;
    }
  };
  for (const text of UNITS)
    expect([text, read(alone, text)]).toEqual([text, read((v, u) => full.unit(v, u), text)]);
});

test('quantities in SI, and what is no quantity', () => {
  expect(quantityOf('30 degC')).toEqual({ num: 303.15, dim: '0,0,0,0,1,0,0,0,0' });
  expect(quantityOf({ value: 5, unit: 'mbar' })).toEqual({ num: 500, dim: '1,-1,-2,0,0,0,0,0,0' });
  expect(quantityOf({ v: 2, u: 'um' })?.num).toBeCloseTo(2e-6);
  expect(quantityOf('5 samples')).toBeNull();
  expect(quantityOf({ value: 1, unit: 'x'.repeat(51) })).toBeNull();
  expect(quantityOf(12)).toBeNull();
});
