# weblate-mirror: the compiled build (dist/) on Node 20, production dependencies only.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY jobs ./jobs
COPY migrations ./migrations
# npm ci runs `prepare`, which compiles to dist/.
RUN npm ci --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY assets ./assets
# The bin runs dist/ when no TypeScript source is newer; the image ships no sources.
RUN mkdir -p src jobs migrations
USER node
# The bin's shebang starts node with the heap cap weblate-mirror is measured with.
ENTRYPOINT ["bin/weblate-mirror.js"]
CMD ["sync"]
