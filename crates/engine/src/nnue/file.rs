//! The net file: `CAISSANN`, then little-endian `u32` version, hidden size H,
//! output buckets B (version 2; version 1 has no such field and one bucket), QA,
//! QB and SCALE; the first layer's weights (`768 × H` i16, one row per input) and
//! biases (`H` i16); the output weights (`B × 2H` i16) and biases (`B` i32); and
//! an FNV-1a checksum (u64) of everything before it.

use super::{Network, INPUTS, MAX_BUCKETS, QA, QB, SCALE};

/// The network built into the binary (trained by `caissa engine train`; its
/// provenance is in `crates/engine/nets/README.md`).
pub(super) const EMBEDDED: &[u8] = include_bytes!("../../nets/caissa.nnue");

const MAGIC: &[u8; 8] = b"CAISSANN";
/// The version written; version 1 (one output bucket) is still read.
const VERSION: u32 = 2;

/// Why bytes are not a network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// The file does not start with `CAISSANN`.
    NotANet,
    /// A format version this engine does not read.
    Version(u32),
    /// Quantisation or scale other than this engine's.
    Quantisation {
        /// What the file says (QA, QB, SCALE).
        found: (u32, u32, u32),
    },
    /// A hidden size that is zero, not a multiple of 16, or too large.
    Hidden(u32),
    /// A number of output buckets that is zero or too large.
    Buckets(u32),
    /// An output weight beyond ±127.
    OutputWeightRange,
    /// The file's length disagrees with its header.
    Length {
        /// Bytes the header implies.
        expected: usize,
        /// Bytes there are.
        found: usize,
    },
    /// The checksum does not match: the file is damaged.
    Checksum,
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::NotANet => write!(f, "not a Caissa net file (no CAISSANN header)"),
            NetError::Version(v) => {
                write!(f, "net file version {v}; this engine reads 1 to {VERSION}")
            }
            NetError::Quantisation { found } => write!(
                f,
                "net quantised as QA, QB, SCALE = {found:?}; this engine uses ({QA}, {QB}, {SCALE})"
            ),
            NetError::Hidden(h) => write!(
                f,
                "hidden layer of {h}: it must be a multiple of 16 from 16 to {}",
                super::MAX_HIDDEN
            ),
            NetError::Buckets(b) => write!(
                f,
                "{b} output buckets: there must be from 1 to {MAX_BUCKETS}"
            ),
            NetError::Length { expected, found } => {
                write!(
                    f,
                    "net file of {found} bytes; its header implies {expected}"
                )
            }
            NetError::OutputWeightRange => write!(f, "an output weight is beyond ±127"),
            NetError::Checksum => write!(f, "net file checksum mismatch: the file is damaged"),
        }
    }
}

impl std::error::Error for NetError {}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

fn i16s(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect()
}

impl Network {
    /// Reads a net file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(NetError::NotANet);
        }
        let version = u32_at(bytes, 8);
        let fields = match version {
            1 => 4,
            VERSION => 5,
            _ => return Err(NetError::Version(version)),
        };
        let header = 12 + 4 * fields;
        if bytes.len() < header {
            return Err(NetError::Length {
                expected: header,
                found: bytes.len(),
            });
        }
        let hidden = u32_at(bytes, 12);
        let (buckets, at) = if version == 1 {
            (1, 16)
        } else {
            (u32_at(bytes, 16), 20)
        };
        let found = (
            u32_at(bytes, at),
            u32_at(bytes, at + 4),
            u32_at(bytes, at + 8),
        );
        if found != (QA as u32, QB as u32, SCALE as u32) {
            return Err(NetError::Quantisation { found });
        }
        let h = hidden as usize;
        if h == 0 || !h.is_multiple_of(16) || h > super::MAX_HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        let b = buckets as usize;
        if b == 0 || b > MAX_BUCKETS {
            return Err(NetError::Buckets(buckets));
        }
        let ft_w = 2 * INPUTS * h;
        let ft_b = 2 * h;
        let out_w = 2 * b * 2 * h;
        let expected = header + ft_w + ft_b + out_w + 4 * b + 8;
        if bytes.len() != expected {
            return Err(NetError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let body = expected - 8;
        let sum = u64::from_le_bytes(bytes[body..].try_into().map_err(|_| NetError::NotANet)?);
        if sum != fnv1a(&bytes[..body]) {
            return Err(NetError::Checksum);
        }
        let mut at = header;
        let mut take = |n: usize| {
            let s = &bytes[at..at + n];
            at += n;
            s
        };
        let ft_weights = i16s(take(ft_w));
        let ft_bias = i16s(take(ft_b));
        let out_weights = i16s(take(out_w));
        let out_bias = take(4 * b)
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Network::new(h, ft_weights, ft_bias, out_weights, out_bias)
            .ok_or(NetError::OutputWeightRange)
    }

    /// The net file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(
            32 + 2 * (INPUTS + 1 + 2 * self.buckets) * self.hidden + 4 * self.buckets + 8,
        );
        out.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            self.hidden as u32,
            self.buckets as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }
}
