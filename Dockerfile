# syntax=docker/dockerfile:1
#
#   docker build -t morskoy-boy .
#   docker run -e TELOXIDE_TOKEN_FILE=/run/secrets/telegram_token \
#       -v "$PWD/secrets/telegram_token:/run/secrets/telegram_token:ro" \
#       -e REDIS_URL=redis://redis:6379 morskoy-boy
#
# Three stages: `manifests` keeps only the Cargo manifests, so that `builder` can compile the
# dependencies in a layer that is reused until a manifest or Cargo.lock changes; the runtime
# image (distroless: glibc and nothing else, no shell) holds only the stripped binary. The
# locales and the font are compiled in, and TLS goes through rustls with its own root
# certificates (webpki-roots), so no OpenSSL and no CA bundle. The health check is the binary
# itself (`morskoy-boy healthcheck`), as the image has no curl.

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
RUN find . -path ./target -prune -o -type f -exec touch {} + \
 && cargo build --release --locked --bin morskoy-boy \
 && strip target/release/morskoy-boy

FROM gcr.io/distroless/cc-debian12:nonroot
WORKDIR /app
COPY --from=builder /build/target/release/morskoy-boy /app/morskoy-boy
ENV RUST_LOG=info \
    REDIS_URL=redis://redis:6379 \
    MB_HEALTH_ADDR=0.0.0.0:8080
# 8080: GET /healthz; 8443: Telegram's posts in webhook mode (MB_WEBHOOK_URL, compose.yaml).
EXPOSE 8080 8443
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["/app/morskoy-boy", "healthcheck"]
USER 65532:65532
# `docker stop` sends SIGTERM: the bot stops as on ctrl-c (the updates in hand are finished,
# the webhook server closes) and exits 0 well within Docker's 10 s.
ENTRYPOINT ["/app/morskoy-boy"]
