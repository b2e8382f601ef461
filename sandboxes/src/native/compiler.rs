//! The confined host compiler: the command line of each language, the shell script that runs it
//! in its namespaces and limits, and what its exit means (a program that does not compile, a host
//! that lacks a toolchain, a confinement the kernel refuses).

use std::io::{Read as _, Write as _};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{GO_TEST_MAIN, GO_VERSION, NativeLanguage};
use crate::SandboxError;
use crate::error::Lack;

/// Limits on one compilation.
const COMPILE_WALL: Duration = Duration::from_secs(30);
const COMPILE_CPU_SECONDS: u32 = 20;
const COMPILE_ADDRESS_SPACE: u64 = 2 << 30;
const COMPILE_OUTPUT: u64 = 64 << 20;
const DIAGNOSTICS_BYTES: usize = 16 << 10;
/// The shell script that confines the compiler inside its namespaces: it empties the folders
/// that hold host data, gives the compiler a private `/tmp`, and reads the source from stdin,
/// whole (`SOURCE_BYTES` says how long it is; a source written short stops the build with status
/// 122, a failure of the sandbox).
/// Go's toolchain, module and warm build cache (`GO_HOME`, in the runtimes folder, wherever that
/// is) are bound read-only at `/mnt/go`, in an empty `/mnt`, before the host's folders are
/// hidden; the build writes its cache into an overlay on a private layer, so nothing one build
/// writes reaches the next.
const CONFINE: &str = r##"
if [ -n "${GO_HOME:-}" ]; then
    mount -t tmpfs -o size=1m none /mnt && mkdir /mnt/go && mount --bind "$GO_HOME" /mnt/go \
        && mount -o remount,bind,ro /mnt/go || exit 125
elif [ -d /mnt ]; then
    mount -t tmpfs -o size=1m,ro none /mnt
fi
for d in /etc /root /home /var /run /srv /opt /media /work /boot /sys; do
    [ -d "$d" ] && mount -t tmpfs -o size=1m,ro none "$d"
done
mount -t tmpfs -o size=256m none /tmp || exit 125
mkdir -p /tmp/include/bits && cd /tmp || exit 125
for h in algorithm array bitset cassert cctype cfloat chrono climits cmath complex cstdint cstdio cstdlib \
    cstring deque functional iomanip iostream istream iterator limits list map memory numeric optional \
    ostream queue random set sstream stack string string_view tuple unordered_map unordered_set utility \
    valarray variant vector; do
    echo "#include <$h>"
done > /tmp/include/bits/stdc++.h
# A missing toolchain is the host's fault, not the source's: say so with its own status.
command -v "$1" > /dev/null || { echo "$1 is not installed" >&2; exit 124; }
[ -d "$SYSROOT" ] || { echo "$SYSROOT_LACK" >&2; exit 124; }
if [ "$1" = go ]; then
    mkdir /tmp/cache.upper /tmp/cache.work /tmp/gocache /tmp/build && mount -t overlay overlay \
        -o lowerdir=/mnt/go/cache,upperdir=/tmp/cache.upper,workdir=/tmp/cache.work /tmp/gocache || exit 125
    cd /tmp/build && cp /mnt/go/module/go.mod . && ln -s /mnt/go/module/vendor vendor || exit 125
    # The program, then the test file (head reads no further than it is asked from a pipe), each
    # written whole: a source is never cut.
    head -c "$PROGRAM_BYTES" > main.go && cat > main_test.go || exit 122
    [ "$(wc -c < main.go)" -eq "$PROGRAM_BYTES" ] && [ "$(wc -c < main_test.go)" -eq $((SOURCE_BYTES - PROGRAM_BYTES)) ] \
        || { echo "the source was not written whole" >&2; exit 122; }
    [ -s main_test.go ] || rm main_test.go
    if [ -n "${GO_TEST_MAIN:-}" ]; then printf '%s' "$GO_TEST_MAIN" > referee_main_test.go; fi
    "$@" -o /tmp/program.wasm . >&2 || exit 3
    cat /tmp/program.wasm
    exit 0
fi
cat > /tmp/source || exit 122
[ "$(wc -c < /tmp/source)" -eq "$SOURCE_BYTES" ] || { echo "the source was not written whole" >&2; exit 122; }
# C++ links the runtime that reports a throw (cxxrt.cpp), given in the environment.
if [ -n "${CXX_RUNTIME:-}" ]; then printf '%s' "$CXX_RUNTIME" > /tmp/runtime.cpp && set -- "$@" /tmp/runtime.cpp; fi
"$@" /tmp/source -o /tmp/program.wasm >&2 || exit 3
cat /tmp/program.wasm
"##;

/// The C++ runtime linked into every C++ program: what a `throw` does without unwinding.
const CXX_RUNTIME: &str = include_str!("../cxxrt.cpp");

/// The clang flags every C and C++ program gets, after the compiler's name.
const CLANG: [&str; 4] = ["--target=wasm32-wasi", "--sysroot=/usr", "-O2", "-w"];
/// Where the wasm32-wasi libraries live, checked before compiling.
const WASI_LIBC: (&str, &str) = ("/usr/lib/wasm32-wasi", "the wasm32-wasi sysroot (wasi-libc) is not installed");
const RUST_STD: (&str, &str) =
    ("/usr/lib/rustlib/wasm32-wasi", "the wasm32-wasi Rust standard library (libstd-rust-dev-wasm32) is not installed");
/// Where the Go toolchain is inside the confinement (`GO_HOME` bound at `/mnt/go`).
const GOROOT: (&str, &str) = ("/mnt/go/goroot", "the Go toolchain is not set up");
/// The settings of the `go` command, besides those of its `go.env` (runtimes/go/go.env).
const GO_ENV: [(&str, &str); 6] = [
    ("PATH", "/mnt/go/goroot/bin:/usr/bin:/bin"),
    ("GOCACHE", "/tmp/gocache"),
    ("GOPATH", "/tmp/gopath"),
    ("GOENV", "off"),
    ("HOME", "/tmp"),
    // The warm cache's index of the standard library's folders does not fit them as a user
    // namespace sees them (their owner is unmapped there): without the index the go command
    // reads the folders, and still finds every compiled package in the cache.
    ("GODEBUG", "goindex=0"),
];

/// The compiler command line for `language` (the script adds the source and `-o`), and the
/// library folder it needs with the message when that is missing.
fn compiler_command(language: NativeLanguage) -> (Vec<&'static str>, (&'static str, &'static str)) {
    match language {
        NativeLanguage::C => ([&["clang"][..], &CLANG, &["-x", "c", "-std=gnu17"]].concat(), WASI_LIBC),
        NativeLanguage::Cpp => (
            [
                &["clang++"][..],
                &CLANG,
                // Debian's libc++.a carries debug information: stripped, a program is a third the size.
                &["-x", "c++", "-std=gnu++17", "-fignore-exceptions", "-I/tmp/include", "-Wl,--strip-debug"],
            ]
            .concat(),
            WASI_LIBC,
        ),
        NativeLanguage::Rust | NativeLanguage::RustTests => {
            let mut command = vec![
                "rustc",
                "--target=wasm32-wasi",
                "--edition=2021",
                "--crate-name=main",
                "--cap-lints=allow",
                "-Copt-level=2",
                // The standard library's symbols and debug information make a program 70 times
                // the size; nothing reads them.
                "-Cstrip=symbols",
            ];
            if language == NativeLanguage::RustTests {
                // As `cargo test` builds tests (its `test` profile): an arithmetic overflow and a
                // failed `debug_assert!` panic. Optimised all the same, to keep runs cheap.
                command.extend(["--test", "-Coverflow-checks=yes", "-Cdebug-assertions=yes"]);
            }
            (command, RUST_STD)
        }
        // Without its symbol table and DWARF (-s -w) a program is 2% smaller.
        NativeLanguage::Go => (vec!["go", "build", "-ldflags=-s -w"], GOROOT),
        NativeLanguage::GoTests => (vec!["go", "test", "-c", "-ldflags=-s -w"], GOROOT),
    }
}

/// What the confined compiler is given.
pub(super) struct Source {
    /// Its standard input: the source (C, C++, Rust: the program, then its test program), or for
    /// Go the program followed by its test file.
    pub(super) input: Vec<u8>,
    /// A Go build's further settings.
    pub(super) go: Option<GoBuild>,
}

/// A Go build's settings beyond its input.
pub(super) struct GoBuild {
    /// The length of the program at the head of the input.
    pub(super) program_bytes: usize,
    /// The test main of a test build.
    pub(super) test_main: Option<String>,
    /// The folder of the toolchain, module and build cache.
    pub(super) home: PathBuf,
}

impl Source {
    /// One file: the program, then the test program.
    pub(super) fn single(program: &str, tests: Option<&str>) -> Source {
        Source { input: Source::joined(program, tests).into_bytes(), go: None }
    }

    /// The text of one file holding the program, then the test program.
    pub(super) fn joined(program: &str, tests: Option<&str>) -> String {
        match tests {
            Some(tests) => format!("{program}\n{tests}\n"),
            None => program.to_owned(),
        }
    }

    /// A Go package: the program, and the test file of a test build. A file without a package
    /// clause is in the program's package (`main` when the program has none either).
    pub(super) fn go(program: &str, tests: Option<&str>, tests_passed: Option<i32>, home: PathBuf) -> Source {
        let package = go_package(program).unwrap_or("main").to_owned();
        let with_clause = |file: &str| match go_package(file) {
            Some(_) => file.to_owned(),
            None => format!("package {package}\n\n{file}"),
        };
        let program = with_clause(program);
        let mut input = program.clone().into_bytes();
        let test_main = tests.map(|tests| {
            input.extend_from_slice(with_clause(tests).as_bytes());
            GO_TEST_MAIN.replace("{package}", &package).replace("{passed}", &tests_passed.unwrap_or(0).to_string())
        });
        Source { input, go: Some(GoBuild { program_bytes: program.len(), test_main, home }) }
    }
}

/// The package a Go file declares: the word after `package` on the first line that is not
/// blank or a comment.
pub(super) fn go_package(file: &str) -> Option<&str> {
    let mut in_block = false;
    for line in file.lines() {
        let mut rest = line.trim();
        loop {
            if in_block {
                match rest.find("*/") {
                    Some(end) => {
                        rest = rest[end + 2..].trim_start();
                        in_block = false;
                    }
                    None => break,
                }
            } else if let Some(after) = rest.strip_prefix("/*") {
                rest = after;
                in_block = true;
            } else {
                break;
            }
        }
        if in_block || rest.is_empty() || rest.starts_with("//") {
            continue;
        }
        let after = rest.strip_prefix("package").filter(|after| after.starts_with(char::is_whitespace))?;
        let name = after.split("//").next().unwrap_or_default().split("/*").next().unwrap_or_default();
        let name = name.trim().trim_end_matches(';').trim_end();
        return (!name.is_empty()).then_some(name);
    }
    None
}

/// Runs the confined compiler; `Ok(Err(diagnostics))` when the source does not compile.
pub(super) fn compile_on_host(
    language: NativeLanguage,
    source: &Source,
) -> Result<Result<Vec<u8>, String>, SandboxError> {
    let (compiler, (sysroot, sysroot_lack)) = compiler_command(language);
    let mut command = Command::new("unshare");
    if !is_root() {
        // Mount namespaces need CAP_SYS_ADMIN; a user namespace grants it inside, nowhere else.
        command.args(["--user", "--map-root-user"]);
    }
    command
        .args(["--mount", "--net", "--ipc", "--uts", "--pid", "--fork", "--mount-proc", "prlimit"])
        .arg(format!("--as={COMPILE_ADDRESS_SPACE}"))
        .arg(format!("--cpu={COMPILE_CPU_SECONDS}"))
        .arg(format!("--fsize={COMPILE_OUTPUT}"))
        .args(["sh", "-c", CONFINE, "sh"])
        .args(compiler)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("SYSROOT", sysroot)
        .env("SYSROOT_LACK", sysroot_lack)
        .env("CXX_RUNTIME", if language == NativeLanguage::Cpp { CXX_RUNTIME } else { "" })
        .env("SOURCE_BYTES", source.input.len().to_string());
    if let Some(go) = &source.go {
        command
            .envs(GO_ENV)
            .env("GO_HOME", &go.home)
            .env("PROGRAM_BYTES", go.program_bytes.to_string())
            .env("GO_TEST_MAIN", go.test_main.as_deref().unwrap_or_default());
    }
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().map_err(|e| SandboxError::Unavailable {
        runtime: language.name(),
        lack: Lack::ConfinementMissing { source: Arc::new(e) },
    })?;
    let mut stdin = child.stdin.take();
    let source = source.input.clone();
    let feeder = std::thread::spawn(move || {
        if let Some(stdin) = stdin.as_mut() {
            let _ = stdin.write_all(&source);
        }
    });
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(stdout) = stdout.as_mut() {
            let _ = stdout.by_ref().take(COMPILE_OUTPUT).read_to_end(&mut out);
        }
        out
    });
    let mut stderr = child.stderr.take();
    let diagnostics = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(stderr) = stderr.as_mut() {
            let _ = stderr.by_ref().take(DIAGNOSTICS_BYTES as u64).read_to_end(&mut out);
            let _ = std::io::copy(stderr, &mut std::io::sink());
        }
        out
    });
    let deadline = Instant::now() + COMPILE_WALL;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(SandboxError::CompilerWait { source: Arc::new(e) }),
        }
    };
    let _ = feeder.join();
    let wasm = reader.join().unwrap_or_default();
    let diagnostics = String::from_utf8_lossy(&diagnostics.join().unwrap_or_default()).into_owned();
    if let Some(missing) = status.and_then(|status| host_lacks(language, status.code(), &diagnostics)) {
        return Err(missing);
    }
    match status {
        None => Ok(Err(format!("the compiler ran past {} s", COMPILE_WALL.as_secs()))),
        Some(status) if status.success() && wasm.starts_with(b"\0asm") => Ok(Ok(wasm)),
        Some(status) if status.code() == Some(3) && language.name() == "rust" => {
            Ok(Err(explain_rust_diagnostics(diagnostics)))
        }
        Some(status) if status.code() == Some(3) && language.name() == "go" => {
            Ok(Err(explain_go_diagnostics(diagnostics)))
        }
        Some(status) if status.code() == Some(3) => Ok(Err(diagnostics)),
        // Killed by a limit (CPU time, address space, file size): the source is at fault.
        Some(status) if status.code().is_none() => {
            Ok(Err(format!("the compiler stopped at a limit ({status}): {diagnostics}")))
        }
        Some(status) => Err(SandboxError::CompilerFailed { status, diagnostics }),
    }
}

/// The host's failure behind a compiler exit that is not the source's: an incomplete toolchain
/// (the confinement script exits 124), or namespaces the kernel refuses (unshare reports its own
/// failure and exits 1 before the script runs; the script exits 125 when it cannot mount).
pub(super) fn host_lacks(language: NativeLanguage, code: Option<i32>, diagnostics: &str) -> Option<SandboxError> {
    let diagnostics = diagnostics.trim().to_owned();
    let lack = match code {
        Some(124) => Lack::Toolchain { language: language.name(), diagnostics },
        Some(125) => Lack::Confinement { diagnostics },
        Some(1) if diagnostics.starts_with("unshare:") => Lack::Confinement { diagnostics },
        _ => return None,
    };
    Some(SandboxError::Unavailable { runtime: language.name(), lack })
}

/// Rust diagnostics, with a note when the program reaches for a crate: only the standard library
/// is there, and rustc's own message (`unresolved import`, `can't find crate`) does not say so.
pub(super) fn explain_rust_diagnostics(diagnostics: String) -> String {
    const CRATE_MISSING: [&str; 4] =
        ["can't find crate", "unresolved import", "use of undeclared crate", "failed to resolve: use of undeclared"];
    if CRATE_MISSING.iter().any(|sign| diagnostics.contains(sign)) {
        format!(
            "{diagnostics}\nnote: programs are compiled with rustc {RUST_VERSION} and the standard library alone: \
             no crates (rand, regex, itertools, ...) are available\n"
        )
    } else {
        diagnostics
    }
}

/// Go diagnostics, with a note when the program imports a module that is not there: only the
/// standard library and testify's `assert` and `require` are.
pub(super) fn explain_go_diagnostics(diagnostics: String) -> String {
    const MODULE_MISSING: [&str; 3] = ["is not in std", "no required module provides package", "cannot find module"];
    if MODULE_MISSING.iter().any(|sign| diagnostics.contains(sign)) {
        format!(
            "{diagnostics}\nnote: programs are compiled with Go {GO_VERSION}, its standard library and \
             github.com/stretchr/testify's assert and require packages: no other modules are available\n"
        )
    } else {
        diagnostics
    }
}

/// The Rust compiler programs get: Debian 12's rustc.
pub const RUST_VERSION: &str = "1.63";

/// True when the process runs as root (then it creates the namespaces without a user namespace).
fn is_root() -> bool {
    // /proc/self/status names the effective user on its `Uid:` line (real, effective, ...).
    std::fs::read_to_string("/proc/self/status").is_ok_and(|status| {
        status
            .lines()
            .find_map(|line| line.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().nth(1))
            .is_some_and(|effective| effective == "0")
    })
}
