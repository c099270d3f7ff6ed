# syntax=docker/dockerfile:1.7
# Vigil images: one target per app, all built from this file (docker compose builds them for you).
#   docker build --target server -t vigil-server .
# Targets: server (also db-migrate, analytics-deploy and the admin commands), workflows, private-location,
# cli, dashboard, status-page. Each installs a workspace pruned to what it needs (turbo prune), runs
# compiled JavaScript (esbuild bundles in dist/, Next.js standalone output) as the unprivileged `node`
# user, and reports its health on /healthz.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
ENV PNPM_HOME=/pnpm \
    PATH=/pnpm:$PATH \
    NEXT_TELEMETRY_DISABLED=1 \
    TURBO_TELEMETRY_DISABLED=1 \
    TURBO_NO_UPDATE_NOTIFIER=1
RUN npm install --global pnpm@12.21.0 turbo@2.11.11 && npm cache clean --force
WORKDIR /app

# ── Node services ──────────────────────────────────────────────────────────────────────────────────
FROM base AS node-prune
COPY . .
RUN turbo prune @vigil/server @vigil/workflows @vigil/private-location @vigil/cli --docker

FROM base AS node-build
COPY --from=node-prune /app/out/json/ ./
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm install --frozen-lockfile --store-dir /pnpm/store
COPY --from=node-prune /app/out/full/ ./
COPY scripts/build-node.ts scripts/
RUN pnpm exec turbo run build --filter=@vigil/server --filter=@vigil/workflows --filter=@vigil/private-location --filter=@vigil/cli

FROM base AS node-runtime
ENV NODE_ENV=production HOST=0.0.0.0 VIGIL_IMAGE=1
COPY --from=node-prune /app/out/json/ ./
# The bundles hold all JavaScript; node_modules is there for the native packages they load (libSQL).
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm install --prod --frozen-lockfile --store-dir /pnpm/store
COPY --from=node-prune /app/out/full/ ./
COPY --from=node-build /app/apps/server/dist apps/server/dist
COPY --from=node-build /app/apps/workflows/dist apps/workflows/dist
COPY --from=node-build /app/apps/private-location/dist apps/private-location/dist
COPY --from=node-build /app/apps/cli/dist apps/cli/dist
# Code and modules stay root's (the node user cannot change what it runs); node owns only where it writes:
# the probe's outbox and /keys, where db-keys writes the database's keys (a new volume takes the directory's
# owner and mode: node, 755).
RUN mkdir -p /data/probe /keys && chown node:node /data/probe /keys

FROM node-runtime AS server
ENV PORT=3001
USER node
EXPOSE 3001
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "/app/apps/server/dist/main.js"]

FROM node-runtime AS workflows
ENV PORT=3000
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "/app/apps/workflows/dist/main.js"]

FROM node-runtime AS private-location
# Unsent results wait here; mount a volume so they survive the container.
ENV PORT=8081 PROBE_DATA_DIR=/data/probe
VOLUME ["/data/probe"]
# Ping checks run the system's ping (real ICMP; Debian's iputils-ping carries the raw-socket capability).
RUN apt-get update && apt-get install -y --no-install-recommends iputils-ping && rm -rf /var/lib/apt/lists/*
USER node
EXPOSE 8081
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "/app/apps/private-location/dist/main.js"]

FROM node-runtime AS cli
USER node
WORKDIR /work
ENTRYPOINT ["node", "/app/apps/cli/dist/vigil.js"]
CMD ["--help"]

# ── Next.js apps (standalone output: a server.js with only the files it traced) ────────────────────
FROM base AS web-prune
COPY . .
RUN turbo prune @vigil/dashboard @vigil/status-page --docker

FROM base AS web-build
COPY --from=web-prune /app/out/json/ ./
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm install --frozen-lockfile --store-dir /pnpm/store
COPY --from=web-prune /app/out/full/ ./
COPY scripts/build-node.ts scripts/
ENV NEXT_OUTPUT=standalone
RUN mkdir -p apps/dashboard/public apps/status-page/public \
 && pnpm exec turbo run build --filter=@vigil/dashboard --filter=@vigil/status-page

FROM ${NODE_IMAGE} AS web-runtime
# Idle connections are kept longer than a proxy's (60 s is common), or a reused one can be reset under it.
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOSTNAME=0.0.0.0 KEEP_ALIVE_TIMEOUT=65000 VIGIL_IMAGE=1
WORKDIR /app

# The standalone files stay root's; Next.js writes only .next/cache, a tmpfs in compose.
FROM web-runtime AS dashboard
ENV PORT=3002
COPY --from=web-build /app/apps/dashboard/.next/standalone/ ./
COPY --from=web-build /app/apps/dashboard/.next/static apps/dashboard/.next/static
COPY --from=web-build /app/apps/dashboard/public apps/dashboard/public
USER node
EXPOSE 3002
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "/app/apps/dashboard/server.js"]

FROM web-runtime AS status-page
ENV PORT=3003
COPY --from=web-build /app/apps/status-page/.next/standalone/ ./
COPY --from=web-build /app/apps/status-page/.next/static apps/status-page/.next/static
COPY --from=web-build /app/apps/status-page/public apps/status-page/public
USER node
EXPOSE 3003
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "/app/apps/status-page/server.js"]
