# `hearth serve` for a team: several instances on one PostgreSQL database and one S3-compatible
# bucket behind a load balancer (docs/team.md, compose.yaml).
#
# Two stages. The build stage needs the dev dependencies (TypeScript, esbuild, Vite) to build
# dist/ (the bundled CLI and the admin UI); `npm ci --omit=dev` alone cannot build it, so the
# image keeps the build stage's node_modules after `npm prune --omit=dev` and its dist/.

FROM node:20-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary matches (other CPUs, other libc).
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# The desktop shell's Electron is an optional dependency: its binary is never needed here.
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1
COPY package.json package-lock.json ./
# --ignore-scripts: the `prepare` script would build the desktop app too; the one native package
# the server needs is rebuilt on its own.
RUN npm ci --ignore-scripts && npm rebuild better-sqlite3 esbuild
COPY . .
RUN npm run build:server && npm run build:renderer && npm prune --omit=dev --ignore-scripts

FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production \
    HEARTH_DATA=/data \
    HEARTH_ALLOWED_HOSTS=localhost \
    HEARTH_SHUTDOWN_DRAIN_MS=5000
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
# Each instance's own data dir: temporary upload parts, export staging, its copy of the schemas
# folder (<data>/schema), local uploads if UPLOAD_PROVIDER is not s3 (it should be, in a team).
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 1337
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:1337/_health').then((r) => process.exit(r.status === 204 ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself (drain, finish in-flight requests, exit 0).
CMD ["node", "bin/hearth.js", "serve", "--host", "0.0.0.0", "--port", "1337"]
