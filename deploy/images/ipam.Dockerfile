# syntax=docker/dockerfile:1
# The ipam image: Node 24 running capm3-provider/ipam/main.ts bundled into one JavaScript file (dist/capm3-provider/ipam/main.js),
# with the production dependencies inside, as an unprivileged user. Build from the repository root:
#   docker build -f deploy/images/ipam.Dockerfile -t <registry>/metal3-ts-ipam:<tag> .
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
COPY capm3-provider/ipam/ capm3-provider/ipam/
COPY capm3-provider/watch-filter.ts capm3-provider/watch-filter.ts
COPY operator/api/ operator/api/
COPY operator/runtime/ operator/runtime/
RUN node --disable-warning=ExperimentalWarning hack/build/cli.ts capm3-provider/ipam/main.ts

# Stage 3: the runtime: the bundle, which holds its packages (no node_modules). For stack traces
# in .ts lines, run it with NODE_OPTIONS=--enable-source-maps.
FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production
COPY package.json ./
COPY --from=build /app/dist ./dist
# The uid and gid the Deployments in deploy/ run as; nothing in /app is writable by it.
USER 65532:65532
ENTRYPOINT ["node", "--disable-warning=ExperimentalWarning", "dist/capm3-provider/ipam/main.js"]
