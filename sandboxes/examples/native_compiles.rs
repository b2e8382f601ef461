//! Compiles distinct small programs of each compiled language (a Go and a Rust test build, a C++
//! program on `<bits/stdc++.h>`) one after another in one sandbox and prints each compile's wall
//! time: the first of a language finds none of its functions in Cranelift's function cache, the
//! later ones reuse the runtime and library functions they share with it.
//!
//! ```sh
//! cargo run --release -p referee-sandbox --example native_compiles -- 4
//! ```

use std::time::Instant;

use referee_sandbox::{Compiled, NativeLanguage, Sandbox, SandboxConfig};

fn main() -> anyhow::Result<()> {
    let programs: u32 = std::env::args().nth(1).map(|n| n.parse()).transpose()?.unwrap_or(4);
    let sandbox = Sandbox::new(SandboxConfig::default())?;
    let native = sandbox.native()?;
    for language in [NativeLanguage::GoTests, NativeLanguage::RustTests, NativeLanguage::Cpp] {
        let mut times = Vec::new();
        for n in 1..=programs {
            let (program, tests) = source(language, n);
            let started = Instant::now();
            let compiled = native.compile(language, &program, tests.as_deref())?;
            times.push(started.elapsed().as_secs_f64());
            anyhow::ensure!(matches!(compiled, Compiled::Program(_)), "{language:?} program {n} did not compile");
        }
        let later = &times[1..];
        let mean = later.iter().sum::<f64>() / later.len().max(1) as f64;
        println!("{language:?}: first {:.2} s, later ones {mean:.2} s on average ({times:.2?})", times[0]);
    }
    Ok(())
}

/// The `n`th program of `language`, with its test program for a test build.
fn source(language: NativeLanguage, n: u32) -> (String, Option<String>) {
    let expected = 4 * n;
    match language {
        NativeLanguage::GoTests => (
            format!(
                "package main\n\nimport \"fmt\"\n\nfunc F(x int) int {{ return x*{n} + {n} }}\n\nfunc main() {{ fmt.Println(F(3)) }}\n"
            ),
            Some(format!(
                "package main\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\n\
                 func TestF(t *testing.T) {{ assert.Equal(t, {expected}, F(3)) }}\n"
            )),
        ),
        NativeLanguage::RustTests => (
            format!("fn f(x: i64) -> i64 {{ x * {n} + {n} }}\nfn main() {{ println!(\"{{}}\", f(3)); }}\n"),
            Some(format!("#[test]\nfn f_of_3() {{ assert_eq!(f(3), {expected}); }}\n")),
        ),
        NativeLanguage::C | NativeLanguage::Cpp | NativeLanguage::Rust | NativeLanguage::Go => (
            format!(
                "#include <bits/stdc++.h>\nint f(int x) {{ return x * {n} + {n}; }}\n\
                 int main() {{ std::vector<int> v{{f(3)}}; std::cout << v[0] << '\\n'; }}\n"
            ),
            None,
        ),
    }
}
