# weblate-mirror: the bundled CLI on Node 24, production dependencies only.
# CI replays these steps without Docker (scripts/replay-dockerfile.ts) and builds the image
# where a Docker engine runs.
#
# The base, pinned by digest: node:24-bookworm-slim as published for Node 24.21.0, taken on
# 2026-12-06 from public Dockerfiles that pin that release by it (this project's machines reach
# no registry). It must be bumped with each Node 24 release, for its security fixes:
# `docker buildx imagetools inspect node:24-bookworm-slim` prints the current digest.
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:2fe369e969550cde8e867afc3fe370b260140cab4a23d467074295b42163d553

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY scripts/bundle-cli.ts ./scripts/
COPY src ./src
COPY jobs ./jobs
COPY migrations ./migrations
# npm ci runs `prepare`, which compiles and bundles to dist/src/cli/.
RUN npm ci --no-audit --no-fund

FROM ${NODE_IMAGE}
LABEL org.opencontainers.image.title="weblate-mirror" \
      org.opencontainers.image.description="Keeps a PostgreSQL warehouse in step with a Weblate instance." \
      org.opencontainers.image.version="0.1.0" \
      org.opencontainers.image.licenses="GPL-3.0-or-later" \
      org.opencontainers.image.source="https://github.com/weblate-mirror/weblate-mirror" \
      org.opencontainers.image.documentation="https://github.com/weblate-mirror/weblate-mirror#readme" \
      org.opencontainers.image.base.name="docker.io/library/node:24-bookworm-slim"
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
# The two files the bin runs (the CLI and the demo's simulated Weblate); without sources
# beside it, the bin runs the bundle straight away.
COPY --from=build /app/dist/src/cli/bundle.js /app/dist/src/cli/demo-server.js ./dist/src/cli/
COPY bin ./bin
COPY assets ./assets
COPY deploy/docker/healthcheck.js ./deploy/docker/
# Without DATABASE_URL the embedded database goes to ./.weblate-mirror: writable by USER node.
RUN mkdir -m 1777 .weblate-mirror
USER node
# The worker's /healthz where WORKER_HTTP_PORT is set; any other command passes (see the script).
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "deploy/docker/healthcheck.js"]
# The bin's shebang starts node with the heap cap weblate-mirror is measured with. It is process
# 1 and stops on SIGTERM (`docker stop`) within WORKER_SHUTDOWN_TIMEOUT_SECONDS.
ENTRYPOINT ["bin/weblate-mirror.js"]
CMD ["sync"]
