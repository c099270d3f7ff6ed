# One image for every Vigil service; compose picks the command. Build: docker build -t vigil .
FROM node:20-bookworm-slim AS build
RUN npm install -g pnpm@12.21.0
WORKDIR /app
COPY . .
RUN pnpm install --frozen-lockfile \
 && NEXT_TELEMETRY_DISABLED=1 pnpm --filter @vigil/dashboard --filter @vigil/status-page build

FROM node:20-bookworm-slim
RUN npm install -g pnpm@12.21.0 && apt-get update && apt-get install -y --no-install-recommends ca-certificates wget && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=0.0.0.0
COPY --from=build /app /app
USER node
# The probe keeps its outbox here; mount a volume so results survive a container restart.
ENV PROBE_DATA_DIR=/app/.data/probe
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]
