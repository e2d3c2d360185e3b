//! Text values for input and output groups (the user-facing contract).
//!
//! * `0x…` — an unsigned integer in hex: wire `i` of the group gets bit `i`.
//! * `123…` — the same, in decimal, of any width (a small bignum is built
//!   here so 128- and 512-bit values need no external crate).
//! * `b…` — a bit string: character `k` is wire `k` (no reordering at all,
//!   handy for pasting the `*_wire_bits` strings of `vectors.json`).

/// Why a value string was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// The string is empty or only a prefix.
    #[error("empty value {0:?}")]
    Empty(String),
    /// A character is not valid in the chosen notation.
    #[error("invalid character {ch:?} in value {value:?}")]
    BadChar {
        /// The character.
        ch: char,
        /// The whole value string.
        value: String,
    },
    /// The number needs more bits than the group has.
    #[error("value {value:?} does not fit in {width} bits")]
    TooWide {
        /// The whole value string.
        value: String,
        /// Width of the group.
        width: usize,
    },
    /// A bit string has a length different from the group width.
    #[error("bit string {value:?} has {len} bits but the group has {width}")]
    BitLength {
        /// The whole value string.
        value: String,
        /// Bits given.
        len: usize,
        /// Width of the group.
        width: usize,
    },
}

/// How to print an output group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueFormat {
    /// `b` then one character per wire, wire 0 first (parseable back).
    Bits,
    /// `0x` then `ceil(width/4)` hex digits, most significant first, so a
    /// 128-bit group always prints 32 digits.
    Hex,
    /// Unsigned decimal integer.
    Int,
}

/// Parses `s` as a value for a group of `width` wires.
pub fn parse_value(s: &str, width: usize) -> Result<Vec<bool>, ValueError> {
    let s = s.trim();
    let bad = |ch: char| ValueError::BadChar {
        ch,
        value: s.to_string(),
    };
    if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        if hex.is_empty() {
            return Err(ValueError::Empty(s.to_string()));
        }
        let mut bits = vec![false; width];
        for (k, ch) in hex.chars().rev().enumerate() {
            let d = ch.to_digit(16).ok_or_else(|| bad(ch))?;
            for t in 0..4 {
                if d >> t & 1 == 1 {
                    *bits.get_mut(4 * k + t).ok_or_else(|| too_wide(s, width))? = true;
                }
            }
        }
        Ok(bits)
    } else if let Some(bs) = s.strip_prefix('b') {
        let bits = bs
            .chars()
            .map(|ch| match ch {
                '0' => Ok(false),
                '1' => Ok(true),
                _ => Err(bad(ch)),
            })
            .collect::<Result<Vec<bool>, _>>()?;
        if bits.len() != width {
            return Err(ValueError::BitLength {
                value: s.to_string(),
                len: bits.len(),
                width,
            });
        }
        Ok(bits)
    } else {
        if s.is_empty() {
            return Err(ValueError::Empty(s.to_string()));
        }
        // Little-endian u32 limbs; limb = limb * 10 + digit.
        let mut limbs: Vec<u32> = Vec::new();
        for ch in s.chars() {
            let mut carry = u64::from(ch.to_digit(10).ok_or_else(|| bad(ch))?);
            for l in limbs.iter_mut() {
                let v = u64::from(*l) * 10 + carry;
                *l = v as u32;
                carry = v >> 32;
            }
            if carry != 0 {
                limbs.push(carry as u32);
            }
            if limbs.len() > width / 32 + 2 {
                return Err(too_wide(s, width));
            }
        }
        let mut bits = vec![false; width];
        for (i, l) in limbs.iter().enumerate() {
            for t in 0..32 {
                if l >> t & 1 == 1 {
                    *bits.get_mut(32 * i + t).ok_or_else(|| too_wide(s, width))? = true;
                }
            }
        }
        Ok(bits)
    }
}

fn too_wide(s: &str, width: usize) -> ValueError {
    ValueError::TooWide {
        value: s.to_string(),
        width,
    }
}

/// Formats one group's bits (bit `k` = wire `k`) in `fmt`.
pub fn format_value(bits: &[bool], fmt: ValueFormat) -> String {
    match fmt {
        ValueFormat::Bits => {
            let mut s = String::with_capacity(bits.len() + 1);
            s.push('b');
            s.extend(bits.iter().map(|&b| if b { '1' } else { '0' }));
            s
        }
        ValueFormat::Hex => {
            let digits = bits.len().div_ceil(4).max(1);
            let mut s = String::with_capacity(digits + 2);
            s.push_str("0x");
            for d in (0..digits).rev() {
                let v = (0..4).fold(0u32, |acc, t| {
                    acc | (u32::from(bits.get(4 * d + t) == Some(&true)) << t)
                });
                s.push(char::from_digit(v, 16).unwrap_or('?'));
            }
            s
        }
        ValueFormat::Int => {
            // Repeated division by 10^9 of big-endian u32 limbs.
            let mut limbs: Vec<u32> = bits
                .chunks(32)
                .rev()
                .map(|c| {
                    c.iter()
                        .enumerate()
                        .fold(0u32, |acc, (t, &b)| acc | (u32::from(b) << t))
                })
                .collect();
            let mut parts: Vec<u32> = Vec::new();
            while limbs.iter().any(|&l| l != 0) {
                let mut rem = 0u64;
                for l in limbs.iter_mut() {
                    let v = (rem << 32) | u64::from(*l);
                    *l = (v / 1_000_000_000) as u32;
                    rem = v % 1_000_000_000;
                }
                parts.push(rem as u32);
            }
            let mut s = parts
                .last()
                .map_or_else(|| "0".to_string(), |p| p.to_string());
            for p in parts.iter().rev().skip(1) {
                s.push_str(&format!("{p:09}"));
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_u128(bits: &[bool]) -> u128 {
        bits.iter()
            .enumerate()
            .fold(0, |acc, (i, &b)| acc | (u128::from(b) << i))
    }

    #[test]
    fn hex_decimal_bits_agree() {
        let x: u128 = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210;
        let h = parse_value(&format!("{x:#x}"), 128).unwrap();
        let d = parse_value(&x.to_string(), 128).unwrap();
        assert_eq!(to_u128(&h), x);
        assert_eq!(h, d);
        assert_eq!(format_value(&h, ValueFormat::Hex), format!("0x{x:032x}"));
        assert_eq!(format_value(&h, ValueFormat::Int), x.to_string());
        let b = format_value(&h, ValueFormat::Bits);
        assert_eq!(parse_value(&b, 128).unwrap(), h);
        assert_eq!(b.chars().nth(1), Some('0')); // bit 0 of ...3210 is 0
        assert_eq!(b.chars().nth(5), Some('1')); // bit 4 is 1
    }

    #[test]
    fn width_and_char_errors() {
        assert!(parse_value("0x1ff", 8).is_err());
        assert_eq!(to_u128(&parse_value("0x0ff", 8).unwrap()), 255);
        assert!(matches!(
            parse_value("256", 8),
            Err(ValueError::TooWide { .. })
        ));
        assert_eq!(to_u128(&parse_value("255", 8).unwrap()), 255);
        assert!(matches!(
            parse_value("12a", 8),
            Err(ValueError::BadChar { ch: 'a', .. })
        ));
        assert!(matches!(
            parse_value("0xg", 8),
            Err(ValueError::BadChar { .. })
        ));
        assert!(matches!(
            parse_value("b0101", 3),
            Err(ValueError::BitLength { .. })
        ));
        assert!(matches!(parse_value("0x", 3), Err(ValueError::Empty(_))));
        assert!(matches!(parse_value("", 3), Err(ValueError::Empty(_))));
        assert!(parse_value("1", 0).is_err());
        assert_eq!(parse_value("0", 0).unwrap(), Vec::<bool>::new());
    }

    #[test]
    fn big_decimal_roundtrip() {
        // 2^200 + 12345: exercise multi-limb carries both ways.
        let mut bits = vec![false; 256];
        bits[200] = true;
        for (i, b) in bits.iter_mut().enumerate().take(14) {
            *b = 12345 >> i & 1 == 1;
        }
        let s = format_value(&bits, ValueFormat::Int);
        assert_eq!(
            s,
            "1606938044258990275541962092341162602522202993782792835313721"
        );
        assert_eq!(parse_value(&s, 256).unwrap(), bits);
        assert!(parse_value(&s, 200).is_err());
        assert_eq!(format_value(&[], ValueFormat::Int), "0");
        assert_eq!(format_value(&[true; 5], ValueFormat::Hex), "0x1f");
    }
}
