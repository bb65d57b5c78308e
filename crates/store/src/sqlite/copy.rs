//! A SQLite installation as rows (to copy it elsewhere, or into it), and its
//! online backup.

use std::path::Path;

use async_trait::async_trait;

use super::{read_table_rows, write_table_rows, SqliteStore};
use crate::backend::Installation;
use crate::model::Backup;
use crate::rows::{Table, TableSql, Value};
use crate::StoreError;

#[async_trait]
impl Installation for SqliteStore {
    fn kind(&self) -> &'static str {
        "sqlite"
    }

    async fn read_rows(
        &self,
        table: Table,
        after: Option<&[Value]>,
        limit: i64,
    ) -> Result<Vec<Vec<Value>>, StoreError> {
        read_table_rows(&self.pool, table, &TableSql::new(table, true), after, limit).await
    }

    async fn write_rows(&self, table: Table, rows: &[Vec<Value>]) -> Result<u64, StoreError> {
        write_table_rows(&self.pool, table, &TableSql::new(table, true), rows).await
    }

    async fn after_copy(&self) -> Result<(), StoreError> {
        // AUTOINCREMENT remembers the largest id ever written, given ones included.
        Ok(())
    }

    async fn claim_exclusive(&self) -> Result<bool, StoreError> {
        // A SQLite file is locked by the server before it is opened (the lock
        // file beside it), which also keeps out processes that only open it.
        Ok(true)
    }

    async fn backup_to(&self, target: &Path) -> Result<Backup, StoreError> {
        super::backup::backup_to(&self.pool, target).await
    }
}
