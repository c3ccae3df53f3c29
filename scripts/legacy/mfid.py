"""Stand-in for the `mfid` package (not on this machine's package index) for the client suite:
the same byte-aligned base32 of a UUIDv7-shaped value, mapped onto lowercase Crockford."""
import os
import time

_RFC = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"
_last = [0, 0]


def mfid(n=1):
    out = []
    for _ in range(n):
        tick = int(time.time() * (1 << 24))
        if tick <= _last[0]:
            tick = _last[0]
            _last[1] += 1
        else:
            _last[1] = 0
        _last[0] = tick
        seconds, fraction = tick >> 24, tick & 0xFFFFFF
        value = (seconds << 92) | ((fraction >> 12) << 80) | (7 << 76) | ((fraction & 0xFFF) << 64)
        value |= (0b10 << 62) | ((_last[1] & 0x3FFF) << 48) | int.from_bytes(os.urandom(6), "big")
        bits = bin(value)[2:].zfill(128) + "00"
        out.append("".join(_CROCKFORD[int(bits[i:i + 5], 2)] for i in range(0, 130, 5)))
    return out
