# syntax=docker/dockerfile:1
#
#   docker build -t morskoy-boy .
#   docker run -e TELOXIDE_TOKEN=… -e REDIS_URL=redis://redis:6379 morskoy-boy
#
# Three stages: `manifests` keeps only the Cargo manifests, so that `builder` can compile the
# dependencies in a layer that is reused until a manifest or Cargo.lock changes; the runtime
# image holds the binary, the locales and CA certificates (the bot speaks TLS through rustls,
# so no OpenSSL).

ARG RUST_VERSION=1.95

FROM debian:bookworm-slim AS manifests
WORKDIR /src
COPY . .
RUN find . -mindepth 1 -type f \
        ! -name Cargo.toml ! -name Cargo.lock ! -name 'rust-toolchain*' ! -path './.cargo/*' \
        -delete \
 && find . -mindepth 1 -type d -empty -delete

FROM rust:${RUST_VERSION}-bookworm AS builder
WORKDIR /build

# Dependencies: every package gets stand-in sources (see scripts/stub-sources); the stubs are
# removed in the same step, so they never meet the real sources.
COPY --from=manifests /src/ ./
COPY scripts/stub-sources /usr/local/bin/stub-sources
RUN stub-sources . > /tmp/stubs \
 && cargo build --release --locked \
 && xargs rm -f < /tmp/stubs

# The bot. COPY keeps the files' old modification times, and cargo judges freshness by them,
# so without the touch it could take the stub builds above for up to date.
COPY . .
RUN mkdir -p locales \
 && find . -path ./target -prune -o -type f -exec touch {} + \
 && cargo build --release --locked --bin morskoy-boy

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 bot \
 && useradd --system --uid 10001 --gid bot --home-dir /app --no-create-home --shell /usr/sbin/nologin bot
WORKDIR /app
COPY --from=builder /build/target/release/morskoy-boy /app/morskoy-boy
COPY --from=builder /build/locales /app/locales
ENV RUST_LOG=info \
    REDIS_URL=redis://redis:6379
USER 10001:10001
# teloxide's Ctrl-C handler shuts the dispatcher down cleanly on SIGINT; `docker stop` would
# otherwise send SIGTERM, which a process running as PID 1 ignores unless it handles it.
STOPSIGNAL SIGINT
ENTRYPOINT ["/app/morskoy-boy"]
