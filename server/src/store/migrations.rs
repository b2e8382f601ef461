//! The schema's migrations, embedded in the binary: `server/migrations/NNNN_name.sql`, applied in
//! order by sqlx's migrator. Each is made as `sqlx::migrate!` makes it (version and description
//! from the file name, the checksum of its SQL, `-- no-transaction` honoured), so a database
//! migrated by either agrees; the list is written here rather than by that macro, which compiles a
//! second copy of the database drivers for the build host. A test checks that the list names
//! every file of the folder.

use std::borrow::Cow;
use std::sync::OnceLock;

use sqlx::SqlStr;
use sqlx::migrate::{Migration, MigrationType, Migrator};

/// A migration file's name and its SQL.
macro_rules! migration {
    ($file:literal) => {
        ($file, include_str!(concat!("../../migrations/", $file)))
    };
}

/// Every migration file, by name, in version order.
const FILES: &[(&str, &str)] = &[
    migration!("0001_foundation.sql"),
    migration!("0002_jobs.sql"),
    migration!("0003_noise.sql"),
    migration!("0004_rubrics.sql"),
    migration!("0005_rlpr.sql"),
    migration!("0006_rlpr_rounds.sql"),
    migration!("0007_noise_windows.sql"),
    migration!("0008_rlpr_baselines.sql"),
    migration!("0009_jobs_fairness.sql"),
    migration!("0010_scoring_log.sql"),
    migration!("0011_retention.sql"),
    migration!("0012_job_owner.sql"),
    migration!("0013_key_usage.sql"),
    migration!("0014_episodes.sql"),
    migration!("0015_runs.sql"),
    migration!("0016_run_aggregates.sql"),
    migration!("0017_run_samples.sql"),
];

/// The migrator of [`FILES`], made once.
pub fn migrator() -> &'static Migrator {
    static MIGRATOR: OnceLock<Migrator> = OnceLock::new();
    MIGRATOR.get_or_init(|| {
        let migrations: Vec<Migration> = FILES.iter().filter_map(|&(file, sql)| migration(file, sql)).collect();
        Migrator { migrations: Cow::Owned(migrations), ..Migrator::DEFAULT }
    })
}

/// A migration from its file name (`NNNN_words_of_description.sql`) and SQL, as sqlx resolves a
/// migrations folder; `None` for a name of another shape, which the tests refuse.
fn migration(file: &str, sql: &'static str) -> Option<Migration> {
    let (version, rest) = file.split_once('_')?;
    let version: i64 = version.parse().ok()?;
    let migration_type = MigrationType::from_filename(rest);
    let description = rest.strip_suffix(migration_type.suffix())?.replace('_', " ");
    let no_tx = sql.starts_with("-- no-transaction");
    Some(Migration::new(version, Cow::Owned(description), migration_type, SqlStr::from_static(sql), no_tx))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_the_folder_is_listed_in_version_order() -> std::io::Result<()> {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let mut on_disk: Vec<String> = std::fs::read_dir(folder)?
            .map(|entry| entry.map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect::<Result<_, _>>()?;
        on_disk.sort();
        let listed: Vec<&str> = FILES.iter().map(|(file, _)| *file).collect();
        assert_eq!(listed, on_disk, "server/src/store/migrations.rs must list every migration file");
        Ok(())
    }

    #[test]
    fn migrations_are_resolved_as_sqlx_resolves_the_folder() -> anyhow::Result<()> {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let resolved = sqlx::migrate::resolve_blocking(&folder).map_err(|e| anyhow::anyhow!("{e}"))?;
        let ours = &migrator().migrations;
        assert_eq!(ours.len(), FILES.len(), "a file name of the wrong shape");
        assert_eq!(ours.len(), resolved.len());
        for (ours, (theirs, _)) in ours.iter().zip(&resolved) {
            assert_eq!(ours.version, theirs.version);
            assert_eq!(ours.description, theirs.description);
            assert_eq!(ours.migration_type, theirs.migration_type);
            assert_eq!(ours.checksum, theirs.checksum, "{}", ours.description);
            assert_eq!(ours.no_tx, theirs.no_tx);
        }
        Ok(())
    }
}
