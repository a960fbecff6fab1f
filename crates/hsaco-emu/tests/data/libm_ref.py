#!/usr/bin/env python3
"""Reference values for the f64 built-ins that tests/corpus.rs checks (tanh, cbrt, erf
of the ROCm device libraries), computed with mpmath at 200 bits and printed with 30
significant digits, so that parsing them gives the correctly rounded double.

  python3 crates/hsaco-emu/tests/data/libm_ref.py > crates/hsaco-emu/tests/data/libm_f64_ref.txt

Each line: the input's bits (hex) and tanh, cbrt, erf of it (decimal, nan, inf, -inf,
-0). The inputs: edge values (zeros, denormals, extremes, NaN, infinities) and
pseudo-random values (fixed seed) in [-8, 8] and of magnitudes 1e-300 to 1e300."""
import math
import random
import struct

import mpmath

mpmath.mp.prec = 200


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def fmt(x, f):
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return {"tanh": "1" if x > 0 else "-1", "cbrt": "inf" if x > 0 else "-inf",
                "erf": "1" if x > 0 else "-1"}[f]
    if x == 0.0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    m = mpmath.mpf(x)
    if f == "tanh":
        r = mpmath.tanh(m)
    elif f == "cbrt":
        r = mpmath.cbrt(abs(m)) * (1 if x > 0 else -1)
    else:
        r = mpmath.erf(m)
    return mpmath.nstr(r, 30, strip_zeros=False, min_fixed=1, max_fixed=0)


edges = [0.0, -0.0, 5e-324, -5e-324, 1e-310, -2.2250738585072014e-308,
         2.2250738585072014e-308, 1e-300, 1e-20, -1e-20, 1e-8, 0.5, -0.5, 0.88, -0.88,
         1.0, -1.0, 2.5, -3.0, 6.0, -6.0, 20.0, -20.0, 27.0, -8.0, 30.0, 1e300, -1e300,
         1.7976931348623157e308, -1.7976931348623157e308, float("nan"), float("inf"),
         float("-inf")]
rng = random.Random(19)
xs = list(edges)
while len(xs) < 160:
    xs.append(rng.uniform(-8.0, 8.0))
while len(xs) < 256:
    xs.append(rng.choice([-1.0, 1.0]) * 10.0 ** rng.uniform(-300, 300))
for x in xs:
    print("%016x %s %s %s" % (bits(x), fmt(x, "tanh"), fmt(x, "cbrt"), fmt(x, "erf")))
