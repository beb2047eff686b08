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
# jemalloc instead of glibc's malloc, giving freed memory back within a second. Node reads each socket
# into a fresh 64 KiB buffer and keeps per-connection native state; after a burst of 1,000 streams
# glibc's arenas stay full of holes it never returns (gw serve 10 s after the s6 load: 96-119 MB,
# varying with the peak, even mapping 64 KiB buffers and keeping two arenas). jemalloc purges unused
# pages from a background thread after dirty_decay_ms: 92 MB after the same load, peaks 120-122 MB
# instead of 127-145, CPU per stream the same within noise (paired rounds, docs/benchmarks.md,
# "Issue 26 point 5, third part"). The library's path differs by architecture, so a fixed link names it.
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libjemalloc2 \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s "$(ls /usr/lib/*-linux-gnu/libjemalloc.so.2)" /usr/local/lib/libjemalloc.so.2
ENV LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 MALLOC_CONF=background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0
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
#   afterwards. It costs CPU: about 6-11 % more per stream at 32 streams than 16 MB, because more of
#   each stream's objects survive a scavenge (docs/benchmarks.md, "Larger semi-spaces, a third time").
# --no-memory-reducer: V8's memory reducer shrinks an idle heap with collections that drop the maps
#   optimized code refers to, deoptimizing about 90 hot functions after every quiet spell; gw's own
#   idle collection (GW_IDLE_COLLECT_AFTER_MS, src/runtime/idle-memory.ts) gives the memory back
#   without that.
ENTRYPOINT ["node", "--max-semi-space-size=2", "--no-memory-reducer", "/app/dist/cli/main.js"]
CMD ["--help"]
