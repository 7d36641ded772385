//! The side that moves, and a number written without the formatting
//! machinery: what a family's own types are made of, below the IR.

use serde::{Deserialize, Serialize};

/// The side that makes a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White (in English checkers the side that does not start).
    White,
    /// Black.
    Black,
}

impl Side {
    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

/// Appends a number in decimal (without the formatting machinery, which
/// costs more than the rest of a move).
pub fn push_number(buf: &mut String, n: u32) {
    let digit = |d: u32| char::from(b'0' + (d % 10) as u8);
    if n < 10 {
        buf.push(digit(n));
        return;
    }
    if n < 100 {
        buf.push(digit(n / 10));
        buf.push(digit(n));
        return;
    }
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        buf.push(char::from(d));
    }
}
