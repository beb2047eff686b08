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
# A young generation of 2 MB semi-spaces instead of V8's 16 MB: with 1,000 streams open, gw serve
# peaked at 122 MB instead of 160 MB and kept 114 MB instead of 159 MB afterwards, with no CPU cost
# that the bench could tell from noise (docs/benchmarks.md, "The budgets"). Only a command-line
# flag can set it (v8.setFlagsFromString after start does not resize the heap).
ENV NODE_OPTIONS=--max-semi-space-size=2
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
ENTRYPOINT ["node", "/app/dist/cli/main.js"]
CMD ["--help"]
