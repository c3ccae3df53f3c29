import {
  decodeMfid,
  encodeMfid,
  isMfid,
  isOrcid,
  mfidTime,
  newMfid,
  RFC4648_ALPHABET,
} from '../../src/core/ids';

function uuidOf(mfid: string): string {
  const hex = Buffer.from(decodeMfid(mfid)).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe('MFID', () => {
  test('decodes real identifiers of the legacy system to version-7 UUIDs', () => {
    expect(uuidOf('0tbawsqfchttn00013xwxpb4zc')).toBe('0696ae66-ef64-75aa-8000-08fbced964fb');
    expect(mfidTime('0tbawsqfchttn00013xwxpb4zc').toISOString()).toBe('2026-01-17T01:31:26.962Z');
    for (const id of [
      '0swqzb3a1sthv000xd8kta0vrw',
      '0tf7shn2m5xkn000jymh0by7bg',
      '0td7evvtg5wb90005k1j97ak94',
    ]) {
      expect(isMfid(id)).toBe(true);
      expect(uuidOf(id)[14]).toBe('7');
    }
  });

  test('is the byte-aligned RFC 4648 base32 mapped onto lowercase Crockford', () => {
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    const rfc = (() => {
      let bits = '';
      for (const b of bytes) bits += b.toString(2).padStart(8, '0');
      bits = bits.padEnd(130, '0');
      return Array.from(
        { length: 26 },
        (_, i) => RFC4648_ALPHABET[parseInt(bits.slice(i * 5, i * 5 + 5), 2)],
      ).join('');
    })();
    const mapped = [...rfc]
      .map((c) => '0123456789abcdefghjkmnpqrstvwxyz'[RFC4648_ALPHABET.indexOf(c)])
      .join('');
    expect(encodeMfid(bytes)).toBe(mapped);
    expect(decodeMfid(mapped)).toEqual(bytes);
  });

  test('new MFIDs are valid, version 7, and sort in creation order', () => {
    const ids = Array.from({ length: 5000 }, () => newMfid());
    for (const id of ids.slice(0, 50)) {
      expect(id).toHaveLength(26);
      expect(isMfid(id)).toBe(true);
      expect('048cgmrw').toContain(id[25]);
      expect(uuidOf(id)[14]).toBe('7');
      expect(['8', '9', 'a', 'b']).toContain(uuidOf(id)[19]);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Math.abs(mfidTime(ids[0]).getTime() - Date.now())).toBeLessThan(5000);
  });

  test('validation rejects near misses', () => {
    expect(isMfid('0tbawsqfchttn00013xwxpb4zd')).toBe(false); // last char carries padding bits
    expect(isMfid('0tbawsqfchttn00013xwxpb4z')).toBe(false);
    expect(isMfid('0TBAWSQFCHTTN00013XWXPB4ZC')).toBe(false);
    expect(isMfid('0tbawsqfchttn0001ixwxpb4zc')).toBe(false); // i is not Crockford
    expect(isOrcid('0000-0002-1825-0097')).toBe(true);
    expect(isOrcid('0000-0002-1825-009X')).toBe(true);
    expect(isOrcid('0000-0002-1825-00970')).toBe(false);
  });
});
