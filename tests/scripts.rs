//! `scripts/run` and `scripts/test` check what building the bot needs before they start
//! anything (`scripts/prerequisites`): cargo of Rust 1.89 or newer and a C compiler, each
//! missing one named with exactly what to install.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A folder for `PATH` holding only `tools` (links to this machine's), and `cargo` printing
/// `cargo_version` when one is given.
fn path_with(tools: &[&str], cargo_version: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for tool in tools {
        let found = which(tool).unwrap_or_else(|| panic!("{tool} is not on this machine's PATH"));
        std::os::unix::fs::symlink(found, dir.path().join(tool)).unwrap();
    }
    if let Some(v) = cargo_version {
        let cargo = dir.path().join("cargo");
        std::fs::write(&cargo, format!("#!/bin/sh\necho 'cargo {v} (test)'\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir
}

fn which(tool: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

/// Runs `script` with `PATH` set to `path` alone: its exit status and stderr.
fn run(script: &str, path: &Path) -> (Option<i32>, String) {
    let out = Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join(script))
        .env_clear()
        .env("PATH", path)
        .env("HOME", path)
        .env("TELOXIDE_TOKEN", "1:test")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn without_cargo_the_scripts_stop_and_name_rustup() {
    let path = path_with(&["bash", "dirname"], None);
    for script in ["scripts/run", "scripts/test"] {
        let (code, said) = run(script, path.path());
        assert_eq!(code, Some(1), "{script}: {said}");
        assert!(said.contains("cargo is not on PATH"), "{script}: {said}");
        assert!(said.contains("https://sh.rustup.rs"), "{script}: {said}");
        // Nothing else was tried (no Redis, no build).
        assert!(
            said.lines().all(|l| l.starts_with("prerequisites: ")),
            "{script}: {said}"
        );
    }
}

#[test]
fn an_old_cargo_is_named_with_its_update_and_a_missing_c_compiler_with_its_package() {
    // Debian's cargo, no C compiler: both named.
    let old = path_with(&["bash", "dirname"], Some("1.63.0"));
    let (code, said) = run("scripts/test", old.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("cargo 1.63.0 is older than 1.89"), "{said}");
    assert!(said.contains("rustup update stable"), "{said}");
    assert!(said.contains("apt-get install build-essential"), "{said}");
    // A new enough cargo and a C compiler: nothing is said of them.
    let cc = ["cc", "gcc", "clang"]
        .into_iter()
        .find(|t| which(t).is_some())
        .expect("a C compiler on this machine");
    let good = path_with(&["bash", "dirname", cc], Some("1.89.0"));
    let out = Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/prerequisites"))
        .env_clear()
        .env("PATH", good.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
    // 1.88 is one too old.
    let older = path_with(&["bash", "dirname", cc], Some("1.88.1"));
    let (code, said) = run("scripts/run", older.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("older than 1.89"), "{said}");
    assert!(!said.contains("build-essential"), "{said}");
}
