# syntax=docker/dockerfile:1
#
# The salesplatform server. The runtime image has no PostgreSQL server: give
# it DATABASE_URL (compose.yaml does). Build with
#   docker build --build-arg WITH_POSTGRES=true .
# for an image that can also start its private PostgreSQL under DATA_DIR.

FROM golang:1.26-bookworm AS build
WORKDIR /src
# Modules first, so that a source change does not download them again.
COPY go.mod go.sum ./
RUN go mod download
# Only the sources: no ./data (a local private PostgreSQL) in the context.
COPY cmd ./cmd
COPY domain ./domain
COPY graph ./graph
COPY persistence ./persistence
COPY rest ./rest
COPY schema.graphqls gqlgen.yml ./
# No .git in the context: `salesplatform version` reports no commit unless
# the build passes one through VCS stamping (build from a checkout with .git
# copied and -buildvcs=true to get it).
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags='-s -w' -o /out/salesplatform ./cmd/salesplatform

FROM debian:bookworm-slim AS runtime
ARG WITH_POSTGRES=false
RUN set -eux; \
    apt-get update; \
    apt-get install -y --no-install-recommends ca-certificates curl tzdata; \
    if [ "$WITH_POSTGRES" = "true" ]; then apt-get install -y --no-install-recommends postgresql; fi; \
    rm -rf /var/lib/apt/lists/*; \
    useradd --system --uid 10001 --home-dir /var/lib/salesplatform --create-home --shell /usr/sbin/nologin salesplatform
COPY --from=build /out/salesplatform /usr/local/bin/salesplatform

USER 10001:10001
WORKDIR /var/lib/salesplatform
ENV ADDR=0.0.0.0:8000 \
    DATA_DIR=/var/lib/salesplatform \
    LOG_LEVEL=info \
    SHUTDOWN_GRACE=15s
EXPOSE 8000
# SIGTERM starts the drain: /readyz turns 503, the listener closes, requests
# in flight finish within SHUTDOWN_GRACE. Give `docker stop -t` (compose:
# stop_grace_period) more than DRAIN_DELAY plus SHUTDOWN_GRACE.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD curl -fsS -o /dev/null http://127.0.0.1:8000/readyz || exit 1
ENTRYPOINT ["/usr/local/bin/salesplatform"]
CMD ["serve"]
