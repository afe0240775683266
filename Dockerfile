# weblate-mirror: runs the TypeScript sources with tsx (no build step).
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY bin ./bin
COPY src ./src
COPY migrations ./migrations
COPY tsconfig.json ./
USER node
ENTRYPOINT ["node", "bin/weblate-mirror.js"]
CMD ["sync"]
