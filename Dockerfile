# weblate-mirror: the bundled CLI on Node 20, production dependencies only.
# CI replays these steps without Docker (scripts/replay-dockerfile.ts) and builds the image
# where a Docker engine runs.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY scripts/bundle-cli.ts ./scripts/
COPY src ./src
COPY jobs ./jobs
COPY migrations ./migrations
# npm ci runs `prepare`, which compiles and bundles to dist/src/cli/.
RUN npm ci --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
# The two files the bin runs (the CLI and the demo's simulated Weblate); without sources
# beside it, the bin runs the bundle straight away.
COPY --from=build /app/dist/src/cli/bundle.js /app/dist/src/cli/demo-server.js ./dist/src/cli/
COPY bin ./bin
COPY assets ./assets
# Without DATABASE_URL the embedded database goes to ./.weblate-mirror: writable by USER node.
RUN mkdir -m 1777 .weblate-mirror
USER node
# The bin's shebang starts node with the heap cap weblate-mirror is measured with.
ENTRYPOINT ["bin/weblate-mirror.js"]
CMD ["sync"]
