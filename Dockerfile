# The gw image: `gw extproc` (beside Envoy in the gateway pods) and `gw operator`
# both run from it. Build:  docker build -t model-gateway:dev .

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: every dependency, TypeScript compiled to dist/ ------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY tsconfig.json ./
COPY src ./src
COPY proto ./proto
COPY crds ./crds
RUN npm run build

# ---- runtime: production dependencies, dist/, crds/ (the schemas gw validates
# against) and proto/ (the ext_proc protos loaded at start) ---------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
# glibc's malloc, told to give freed buffers back: Node reads each socket into a fresh 64 KiB buffer,
# and below the mmap threshold those come from malloc's arenas, which a burst of streams leaves full
# of holes that are never returned (gw serve: 13 MB more than a fresh process, 10 s after a load).
# At 64 KiB they are mapped and unmapped whole, and two arenas are shared by all threads. gw serve
# 10 s after a load: 91-95 MB instead of 101-105; CPU per stream the same within noise (paired
# rounds, docs/benchmarks.md, "Issue 26 point 5").
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=65536
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error \
 && npm cache clean --force
COPY --from=build /src/dist ./dist
COPY crds ./crds
COPY proto ./proto
# A numeric user, so Kubernetes can verify runAsNonRoot without an /etc/passwd entry.
USER 10001:10001
EXPOSE 9090 9091
# Node's flags stand here, not in NODE_OPTIONS, which is left to the chart's heap size (V8 accepts neither
# flag after start):
# --max-semi-space-size=2: a young generation of 2 MB semi-spaces instead of V8's 16 MB: with 1,000
#   streams open, gw serve peaked at 122 MB instead of 160 MB and kept 114 MB instead of 159 MB
#   afterwards, with no CPU cost the bench could tell from noise (docs/benchmarks.md, "The budgets").
# --no-memory-reducer: V8's memory reducer shrinks an idle heap with collections that drop the maps
#   optimized code refers to, deoptimizing about 90 hot functions after every quiet spell; gw's own
#   idle collection (GW_IDLE_COLLECT_AFTER_MS, src/runtime/idle-memory.ts) gives the memory back
#   without that.
ENTRYPOINT ["node", "--max-semi-space-size=2", "--no-memory-reducer", "/app/dist/cli/main.js"]
CMD ["--help"]
