//! What the float per-operation tests (ops_valu_16, ops_valu_f32, ops_valu_f64) share:
//! bit patterns of the special values, bit/float conversions, "the same result" (a NaN
//! result is any NaN: the manuals give the quiet NaN's payload no meaning) and IEEE
//! 754-2008 minNum/maxNum as the manuals give them in IEEE mode (a quiet NaN operand
//! loses to a number, and -0 is below +0).

/// f32 bit patterns and helpers.
pub mod f32bits {
    pub const NAN: u32 = 0x7fc0_0000;
    pub const INF: u32 = 0x7f80_0000;
    pub const NINF: u32 = 0xff80_0000;
    pub const NZERO: u32 = 0x8000_0000;

    pub fn fb(x: f32) -> u32 {
        x.to_bits()
    }
    pub fn bf(x: u32) -> f32 {
        f32::from_bits(x)
    }
    /// The same value, or both NaN.
    pub fn same(got: u32, want: u32) -> bool {
        got == want || (bf(got).is_nan() && bf(want).is_nan())
    }
}

/// f64 bit patterns and helpers.
pub mod f64bits {
    pub const NAN: u64 = 0x7ff8_0000_0000_0000;
    pub const INF: u64 = 0x7ff0_0000_0000_0000;
    pub const NINF: u64 = 0xfff0_0000_0000_0000;
    pub const NZERO: u64 = 0x8000_0000_0000_0000;

    pub fn db(x: f64) -> u64 {
        x.to_bits()
    }
    pub fn bd(x: u64) -> f64 {
        f64::from_bits(x)
    }
    /// The same value, or both NaN.
    pub fn same(g: u64, w: u64) -> bool {
        g == w || (bd(g).is_nan() && bd(w).is_nan())
    }
}

/// The float types minNum/maxNum are written for.
pub trait Float: Copy + PartialOrd {
    fn nan(self) -> bool;
    fn negative(self) -> bool;
}
impl Float for f32 {
    fn nan(self) -> bool {
        self.is_nan()
    }
    fn negative(self) -> bool {
        self.is_sign_negative()
    }
}
impl Float for f64 {
    fn nan(self) -> bool {
        self.is_nan()
    }
    fn negative(self) -> bool {
        self.is_sign_negative()
    }
}

/// IEEE minNum: a NaN operand loses to a number, -0 < +0.
pub fn min_num<T: Float>(a: T, b: T) -> T {
    if a.nan() {
        b
    } else if b.nan() {
        a
    } else if a == b {
        if a.negative() {
            a
        } else {
            b
        }
    } else if a < b {
        a
    } else {
        b
    }
}

/// IEEE maxNum: a NaN operand loses to a number, +0 > -0.
pub fn max_num<T: Float>(a: T, b: T) -> T {
    if a.nan() {
        b
    } else if b.nan() {
        a
    } else if a == b {
        if a.negative() {
            b
        } else {
            a
        }
    } else if a > b {
        a
    } else {
        b
    }
}
