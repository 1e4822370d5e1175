# Production image: the compiled API and the built PWA. Stateless: photos go to STORAGE_URL (a
# bucket in docker-compose.yml), everything else to the database, so any number of replicas can run
# it. Two stages (docs/operations.md, "The compiled server"): `build` installs every dependency and
# builds the PWA and the server; `runtime`, the image that runs, holds only the production
# dependencies, dist/ and pwa/dist, owned by root and run as the unprivileged `node` user.
# Node 22: the AWS SDK for the object storage requires it from 2027 (20.19+ still works).
FROM node:22-bookworm-slim AS toolchain
# For native modules without a prebuilt binary for this platform (argon2, better-sqlite3).
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app

# Production dependencies alone: cached until package-lock.json changes.
FROM toolchain AS prod-deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

FROM toolchain AS build
COPY package.json package-lock.json ./
RUN npm ci --include=dev
COPY . .
# The PWA (pwa/dist) and the server (dist/) are built once into the image, not by every replica.
RUN npm run build

FROM node:22-bookworm-slim AS runtime
# DejaVu renders the watermark text; sharp ships its own libvips.
RUN apt-get update \
  && apt-get install -y --no-install-recommends fonts-dejavu-core \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Two glibc memory arenas keep the memory of image uploads in bounds (docs/images.md, "Memory").
ENV NODE_ENV=production MALLOC_ARENA_MAX=2
COPY package.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/pwa/dist ./pwa/dist
# The code stays root's (read-only to the server); only data/ (the SQLite default, the generated
# JWT secret, the e-mail outbox folder) is the server's to write.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 8080
# No curl in the slim image: Node's own fetch asks the server. A 503 (database, storage or Redis
# down) is unhealthy too.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Plain node on the compiled output: no npm, no tsx, no build step at start. Signals reach the
# server itself (graceful stop on SIGTERM).
CMD ["node", "--enable-source-maps", "dist/server.js"]
