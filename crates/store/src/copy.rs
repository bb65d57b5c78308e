//! Copying a whole installation from one backend to another (`caissa db
//! migrate`): every table in an order that respects its references, a page of
//! rows at a time, each keeping its key (ids included, so references stay
//! true). Rows already in the target are left alone, so a second run copies
//! nothing. Afterwards each table is read back from the target and must hold the
//! same number of rows with the same checksum as the source.

use sha2::{Digest, Sha256};

use crate::backend::Backend;
use crate::rows::{Table, Value};
use crate::StoreError;

/// Rows read and written at a time.
const PAGE: i64 = 2_000;

/// What copying one table did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableCopy {
    /// The table.
    pub table: &'static str,
    /// Its rows in the source (and, checked, in the target).
    pub rows: u64,
    /// Rows the target did not have yet.
    pub new: u64,
    /// The checksum both sides agree on: a sum of the rows' SHA-256, so it does
    /// not depend on the order a backend sorts text in.
    pub checksum: u128,
}

/// What copying an installation did, table by table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Copied {
    /// Each table, in the order copied.
    pub tables: Vec<TableCopy>,
}

impl Copied {
    /// Rows the target did not have yet, in all.
    pub fn new_rows(&self) -> u64 {
        self.tables.iter().map(|t| t.new).sum()
    }
}

/// A checksum of a set of rows that does not depend on their order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Checksum {
    rows: u64,
    sum: u128,
}

impl Checksum {
    fn add(&mut self, row: &[Value]) {
        let mut hash = Sha256::new();
        for value in row {
            hash.update(value.canonical().as_bytes());
            hash.update(b"\x1f");
        }
        let digest = hash.finalize();
        let mut first = [0u8; 16];
        first.copy_from_slice(&digest[..16]);
        self.rows += 1;
        self.sum = self.sum.wrapping_add(u128::from_be_bytes(first));
    }
}

/// Reads every row of `table` in `store`, a page at a time, adding each to
/// `sum`; with `copy_to`, also writes each page there and counts the new rows.
async fn each_row(
    store: &dyn Backend,
    table: Table,
    sum: &mut Checksum,
    copy_to: Option<&dyn Backend>,
) -> Result<u64, StoreError> {
    let mut after: Option<Vec<Value>> = None;
    let mut new = 0;
    loop {
        let rows = store.read_rows(table, after.as_deref(), PAGE).await?;
        rows.iter().for_each(|row| sum.add(row));
        if let (Some(target), false) = (copy_to, rows.is_empty()) {
            new += target.write_rows(table, &rows).await?;
        }
        match rows.last() {
            Some(last) if rows.len() as i64 == PAGE => {
                after = Some(last[..table.key_len()].to_vec());
            }
            _ => return Ok(new),
        }
    }
}

/// Copies `from` into `to` and checks the copy (see the module's comment).
pub(crate) async fn copy(
    from: &dyn Backend,
    to: &dyn Backend,
    mut progress: impl FnMut(&TableCopy),
) -> Result<Copied, StoreError> {
    let mut copied = Copied::default();
    for table in Table::ALL {
        let mut source = Checksum::default();
        let new = each_row(from, table, &mut source, Some(to)).await?;
        let mut target = Checksum::default();
        each_row(to, table, &mut target, None).await?;
        if target.rows != source.rows {
            return Err(StoreError::Copy {
                table: table.name(),
                reason: format!(
                    "the source has {} rows and the copy {} (was the target empty, or an earlier copy of this source?)",
                    source.rows, target.rows
                ),
            });
        }
        if target.sum != source.sum {
            return Err(StoreError::Copy {
                table: table.name(),
                reason: format!(
                    "{} rows on each side, but not the same rows (checksums {:032x} and {:032x}): \
                     the target holds rows of another installation, or the source changed while it was copied",
                    source.rows, source.sum, target.sum
                ),
            });
        }
        let done = TableCopy {
            table: table.name(),
            rows: source.rows,
            new,
            checksum: source.sum,
        };
        progress(&done);
        copied.tables.push(done);
    }
    to.after_copy().await?;
    Ok(copied)
}
