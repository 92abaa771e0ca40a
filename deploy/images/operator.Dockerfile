# syntax=docker/dockerfile:1
# The operator image: Node 24 running operator/main.ts bundled into one JavaScript file (dist/operator/main.js),
# with the production dependencies inside, as an unprivileged user. Build from the repository root:
#   docker build -f deploy/images/operator.Dockerfile -t <registry>/metal3-ts-operator:<tag> .
# The Node image is pinned to the release package.json's `node` devDependency names (24.21.0).
ARG NODE_IMAGE=docker.io/library/node:24.21.0-bookworm-slim

# Stage 1: the dependencies from the lock file, without install scripts: the production ones to
# bundle and esbuild to bundle them (its binary comes as an optional dependency, not a script).
FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund && npm cache clean --force

# Stage 2: one JavaScript file (and its source map) from the sources the entry point imports and
# the packages they use (.dockerignore drops tests), by hack/build. Running the .ts files and
# node_modules instead would cost the process ~40 MiB of RSS.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# package.json: "type": "module" makes Node load the files as ES modules.
COPY package.json ./
COPY --from=dependencies /app/node_modules ./node_modules
COPY hack/build/ hack/build/
COPY operator/ operator/
COPY ironic-client/ ironic-client/
RUN node --disable-warning=ExperimentalWarning hack/build/cli.ts operator/main.ts

# Stage 3: the runtime: the bundle, which holds its packages (no node_modules). For stack traces
# in .ts lines, run it with NODE_OPTIONS=--enable-source-maps.
FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production
COPY package.json ./
COPY --from=build /app/dist ./dist
# The uid and gid the Deployments in deploy/ run as; nothing in /app is writable by it.
USER 65532:65532
# V8 flags and malloc settings: operator/node-flags.ts decides them (less RSS).
ENV MALLOC_ARENA_MAX=2
ENV MALLOC_MMAP_THRESHOLD_=131072
ENTRYPOINT ["node", "--disable-warning=ExperimentalWarning", "--max-semi-space-size=1", "--heap-growing-percent=25", "--optimize-for-size", "--no-maglev", "dist/operator/main.js"]
