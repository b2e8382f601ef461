//! C and C++ programs compiled by the host's clang to `wasm32-wasi` and run under the sandbox's
//! limits.

use std::time::Duration;

use referee_sandbox::{
    Compiled, Execution, GuestLanguage, Limits, MAX_SOURCE_BYTES, NativeLanguage, Sandbox, SandboxConfig, Termination,
};

use super::common;

async fn run(source: &str, stdin: &str, limits: Limits) -> anyhow::Result<Execution> {
    run_as(NativeLanguage::C, source, stdin, limits).await
}

async fn run_as(language: NativeLanguage, source: &str, stdin: &str, limits: Limits) -> anyhow::Result<Execution> {
    let sandbox = common::shared()?;
    let loading = std::sync::Arc::clone(&sandbox);
    let native = tokio::task::spawn_blocking(move || loading.native()).await??;
    let module = match std::sync::Arc::clone(&native).compile_queued(language, source.to_owned(), None).await? {
        Compiled::Program(program) => program,
        Compiled::Rejected(diagnostics) => anyhow::bail!("does not compile: {diagnostics}"),
    };
    Ok(native.run_on(sandbox.host(), module, stdin.as_bytes().to_vec(), limits).await?)
}

#[tokio::test]
async fn a_c_program_reads_stdin_and_exits() -> anyhow::Result<()> {
    let source = "#include <stdio.h>\nint main(void) { int a, b; scanf(\"%d %d\", &a, &b); printf(\"%d\\n\", a * b); return a > 5 ? 4 : 0; }";
    let ok = run(source, "3 4\n", Limits::default()).await?;
    assert_eq!((ok.termination, ok.exit_code, ok.stdout), (Termination::Exited, 0, b"12\n".to_vec()));
    let failing = run(source, "6 7\n", Limits::default()).await?;
    assert_eq!((failing.termination, failing.exit_code), (Termination::Exited, 4));
    Ok(())
}

#[tokio::test]
async fn memory_fuel_and_output_limits_hold_for_c() -> anyhow::Result<()> {
    let limits = Limits { memory_bytes: 64 << 20, wall_time: Duration::from_secs(20), ..Limits::default() };
    // The volatile global keeps clang from eliding the allocations.
    let bomb = "#include <stdlib.h>\n#include <string.h>\nchar *volatile keep;\nint main(void) { for (;;) { char *p = malloc(1 << 20); if (!p) return 3; memset(p, 1, 1 << 20); keep = p; } }";
    let run1 = run(bomb, "", limits).await?;
    assert_eq!(run1.termination, Termination::MemoryExhausted, "{run1:?}");
    assert!(run1.memory_peak <= 64 << 20);

    let limits = Limits { fuel: 100_000_000, ..Limits::default() };
    for spin in ["int main(void) { volatile unsigned long i = 0; for (;;) i++; }", "int main(void) { for (;;) {} }"] {
        let (first, second) = (run(spin, "", limits).await?, run(spin, "", limits).await?);
        assert_eq!(
            (&first.termination, &second.termination),
            (&Termination::OutOfFuel, &Termination::OutOfFuel),
            "{spin}"
        );
        assert_eq!(first.fuel_used, second.fuel_used);
    }

    let flood = "#include <stdio.h>\nint main(void) { for (;;) puts(\"yyyyyyyyyyyyyyyyyyyy\"); }";
    let limits = Limits { stdout_bytes: 1 << 16, ..Limits::default() };
    let flooded = run(flood, "", limits).await?;
    assert_eq!(flooded.termination, Termination::OutputExceeded, "{:?}", flooded.termination);
    assert_eq!(flooded.stdout.len(), 1 << 16);
    Ok(())
}

fn stderr(run: &Execution) -> String {
    String::from_utf8_lossy(&run.stderr).into_owned()
}

#[tokio::test]
async fn a_cpp_throw_ends_the_program_with_its_type_and_what() -> anyhow::Result<()> {
    let cpp = |source: &'static str| run_as(NativeLanguage::Cpp, source, "", Limits::default());
    let thrown = cpp("#include <bits/stdc++.h>\nint main() { std::cout << \"before\" << std::endl;\n    throw std::runtime_error(\"test case 3 did not pass\"); }").await?;
    assert!(matches!(thrown.termination, Termination::Crashed(_)), "{thrown:?}");
    assert_eq!(thrown.stdout, b"before\n", "what the program printed before the throw is kept");
    assert!(
        stderr(&thrown).contains(
            "terminate called after throwing an instance of 'std::runtime_error'\n  what():  test case 3 did not pass"
        ),
        "{}",
        stderr(&thrown)
    );

    // A handler compiles but never runs: the throw ends the program.
    let caught =
        cpp("#include <cstdio>\nint main() { try { throw 7; } catch (int) { std::puts(\"caught\"); } }").await?;
    assert!(matches!(caught.termination, Termination::Crashed(_)), "{caught:?}");
    assert!(caught.stdout.is_empty());
    assert!(stderr(&caught).contains("instance of 'int'"), "{}", stderr(&caught));

    // Checks inlined from libc++'s headers throw too, and a thrown class that is not a
    // std::exception has no what().
    let at = cpp("#include <vector>\nint main() { std::vector<int> v(2); return v.at(5); }").await?;
    assert!(stderr(&at).contains("instance of 'std::out_of_range'\n  what():  "), "{}", stderr(&at));
    let plain = cpp("struct Oops {};\nint main() { throw Oops{}; }").await?;
    assert_eq!(stderr(&plain), "terminate called after throwing an instance of 'Oops'\n");
    Ok(())
}

#[tokio::test]
async fn cpp_out_of_memory_is_a_memory_limit_and_a_programs_own_operator_new_links() -> anyhow::Result<()> {
    let limits = Limits { memory_bytes: 64 << 20, wall_time: Duration::from_secs(20), ..Limits::default() };
    let grow = "#include <vector>\nint main() { std::vector<std::vector<char>> keep; for (;;) keep.emplace_back(1 << 20, 1); }";
    let grown = run_as(NativeLanguage::Cpp, grow, "", limits).await?;
    assert_eq!(grown.termination, Termination::MemoryExhausted, "{grown:?}");
    assert!(stderr(&grown).contains("std::bad_alloc"), "{}", stderr(&grown));

    let own = "#include <cstdio>\n#include <cstdlib>\n#include <new>\nstatic int calls;\nvoid* operator new(std::size_t n) { ++calls; return std::malloc(n ? n : 1); }\nvoid operator delete(void* p) noexcept { std::free(p); }\nint* volatile keep;\nint main() { keep = new int(4); std::printf(\"%d %d\\n\", *keep, calls); delete keep; }";
    let ran = run_as(NativeLanguage::Cpp, own, "", Limits::default()).await?;
    assert_eq!(
        (&ran.termination, ran.stdout.as_slice()),
        (&Termination::Exited, b"4 1\n".as_slice()),
        "{}",
        stderr(&ran)
    );
    Ok(())
}

async fn compile_as(language: NativeLanguage, program: String, tests: Option<String>) -> anyhow::Result<Compiled> {
    let sandbox = common::shared()?;
    let native = tokio::task::spawn_blocking(move || sandbox.native()).await??;
    Ok(native.compile_queued(language, program, tests).await?)
}

/// A source is compiled whole, however long: what follows its first million bytes (where the
/// confinement once cut it) still decides, in the program and in its test program.
#[tokio::test]
async fn a_source_past_a_million_bytes_is_compiled_whole() -> anyhow::Result<()> {
    let comment = format!("/*{}*/\n", "x".repeat(1_100_000));
    let program = format!("int main(void) {{ return 0; }}\n{comment}#error the end of the source was read\n");
    match compile_as(NativeLanguage::C, program, None).await? {
        Compiled::Rejected(diagnostics) => {
            assert!(diagnostics.contains("the end of the source was read"), "{diagnostics}");
        }
        Compiled::Program(_) => panic!("a source past a million bytes was cut before its #error"),
    }
    let tests = format!("{comment}#error the end of the test program was read\n");
    let program = "int add(int a, int b) { return a + b; }\nint main(void) { return add(1, 2) != 3; }\n".to_owned();
    match compile_as(NativeLanguage::C, program, Some(tests)).await? {
        Compiled::Rejected(diagnostics) => {
            assert!(diagnostics.contains("the end of the test program was read"), "{diagnostics}");
        }
        Compiled::Program(_) => panic!("a test program past a million bytes was cut before its #error"),
    }
    let over = "x".repeat(MAX_SOURCE_BYTES + 1);
    match compile_as(NativeLanguage::C, over, None).await {
        Err(error) => assert!(error.to_string().contains(&format!("cap of {MAX_SOURCE_BYTES} bytes")), "{error}"),
        Ok(compiled) => panic!("a source over the cap was compiled: {compiled:?}"),
    }
    Ok(())
}

/// A program that imports a function the sandbox does not give (declared, never defined) is
/// rejected as a link error of the program, naming the import, before it runs.
#[tokio::test]
async fn an_import_the_sandbox_lacks_is_the_programs_link_error() -> anyhow::Result<()> {
    let c = "__attribute__((import_module(\"env\"), import_name(\"helper\"))) int helper(int);\nint main(void) { return helper(1); }\n";
    let rust = "extern \"C\" { fn helper(x: i32) -> i32; }\nfn main() { std::process::exit(unsafe { helper(1) }); }\n";
    for (language, source) in [(NativeLanguage::C, c), (NativeLanguage::Rust, rust)] {
        match compile_as(language, source.to_owned(), None).await? {
            Compiled::Rejected(diagnostics) => assert!(
                diagnostics.contains("cannot be linked") && diagnostics.contains("`env::helper`"),
                "{language:?}: {diagnostics}"
            ),
            Compiled::Program(_) => panic!("{language:?}: a program with an undefined import compiled"),
        }
    }
    Ok(())
}

/// The toolchain probe compiles its program on the host at every check, but loads the module
/// through an artefact in the runtimes folder: a second sandbox on the same folder finds it and
/// does not write it again, and an artefact of another module of that probe is replaced.
#[test]
fn the_toolchain_probe_keeps_its_module_precompiled() -> anyhow::Result<()> {
    let runtimes = tempfile::tempdir()?;
    let precompiled = runtimes.path().join("precompiled");
    let config = SandboxConfig {
        runtimes_dir: runtimes.path().to_owned(),
        runtimes_search: Vec::new(),
        ..SandboxConfig::default()
    };
    let artefacts = || -> anyhow::Result<Vec<(String, std::time::SystemTime)>> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(&precompiled)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".cwasm") {
                found.push((name, entry.metadata()?.modified()?));
            }
        }
        Ok(found)
    };

    Sandbox::new(config.clone())?.check(GuestLanguage::C)?;
    let first = artefacts()?;
    assert_eq!(first.len(), 1, "{first:?}");
    assert!(first[0].0.starts_with("probe-c-"), "{first:?}");

    Sandbox::new(config.clone())?.check(GuestLanguage::C)?;
    assert_eq!(artefacts()?, first, "the second probe loaded the artefact the first wrote");

    // An artefact of the probe with another key (an older toolchain's module) is deleted.
    let stale = precompiled.join("probe-c-0123456789abcdef01234567.cwasm");
    std::fs::write(&stale, b"stale")?;
    std::fs::remove_file(precompiled.join(&first[0].0))?;
    Sandbox::new(config)?.check(GuestLanguage::C)?;
    let again = artefacts()?;
    assert!(!stale.exists());
    assert_eq!(again.iter().map(|(name, _)| name).collect::<Vec<_>>(), [&first[0].0]);
    Ok(())
}

/// A Rust test build runs its `#[should_panic]` tests one per run: the run of the other tests
/// skips them, and each one's own run passes (status 0, no `exit` call) only when it panicked
/// with the expected message, and fails with libtest's status 101 and the reason otherwise.
#[tokio::test]
async fn rust_should_panic_tests_run_one_per_run() -> anyhow::Result<()> {
    let program =
        "fn check(n: u8) -> u8 {\n    if n == 0 {\n        panic!(\"zero is not allowed\");\n    }\n    n + 1\n}\n";
    let tests = "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn one() {\n        assert_eq!(check(1), 2);\n    }\n    #[test]\n    #[should_panic(expected = \"not allowed\")]\n    fn zero() {\n        check(0);\n    }\n    #[test]\n    #[should_panic(expected = \"something else\")]\n    fn zero_with_another_message() {\n        check(0);\n    }\n    #[test]\n    #[should_panic]\n    fn one_does_not_panic() {\n        check(1);\n    }\n    #[test]\n    #[should_panic]\n    fn overflow() {\n        check(255);\n    }\n}\n";
    let sandbox = common::shared()?;
    let loading = std::sync::Arc::clone(&sandbox);
    let native = tokio::task::spawn_blocking(move || loading.native()).await??;
    let compiled = std::sync::Arc::clone(&native)
        .compile_queued(NativeLanguage::RustTests, program.to_owned(), Some(tests.to_owned()))
        .await?;
    let Compiled::Program(built) = compiled else { anyhow::bail!("does not compile: {compiled:?}") };
    let names: Vec<&str> = built.panic_tests().iter().map(|test| test.name.as_str()).collect();
    assert_eq!(
        names,
        ["tests::zero", "tests::zero_with_another_message", "tests::one_does_not_panic", "tests::overflow"]
    );

    let others = native.run(&built, b"", &Limits::default()).await?;
    assert_eq!((&others.termination, others.exit_code), (&Termination::Exited, 0), "{}", stderr(&others));
    assert!(String::from_utf8_lossy(&others.stdout).contains("1 passed; 0 failed; 4 ignored"), "{others:?}");

    let mut outcomes = Vec::new();
    for index in 0..names.len() {
        let run = native.run_panic_test(&built, index, &Limits::default()).await?;
        outcomes.push((run.termination.clone(), run.exit_code, run.exit_called, stderr(&run)));
    }
    assert_eq!((&outcomes[0].0, outcomes[0].1, outcomes[0].2), (&Termination::Exited, 0, false), "{}", outcomes[0].3);
    assert_eq!((&outcomes[1].0, outcomes[1].1), (&Termination::Exited, 101));
    assert!(outcomes[1].3.contains("panic message: `\"zero is not allowed\"`"), "{}", outcomes[1].3);
    assert!(outcomes[1].3.contains("expected substring: `\"something else\"`"), "{}", outcomes[1].3);
    assert_eq!((&outcomes[2].0, outcomes[2].1), (&Termination::Exited, 101));
    assert!(outcomes[2].3.contains("test tests::one_does_not_panic did not panic"), "{}", outcomes[2].3);
    // `255u8 + 1` panics in a test build, as under `cargo test`.
    assert_eq!((&outcomes[3].0, outcomes[3].1, outcomes[3].2), (&Termination::Exited, 0, false), "{}", outcomes[3].3);
    Ok(())
}
