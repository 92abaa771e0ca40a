# syntax=docker/dockerfile:1
# The operator image: Node 24 running operator/main.ts built to JavaScript (dist/operator/main.js),
# production dependencies only, as an unprivileged user. Build from the repository root:
#   docker build -f deploy/images/operator.Dockerfile -t <registry>/metal3-ts-operator:<tag> .
# The Node image is pinned to the release package.json's `node` devDependency names (24.21.0).
ARG NODE_IMAGE=docker.io/library/node:24.21.0-bookworm-slim

# Stage 1: the production dependencies from the lock file (no devDependencies, no install scripts).
FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# Stage 2: the JavaScript, from the sources the entry point imports (.dockerignore drops tests),
# by Node's own type stripper (hack/build: no dependencies). Running the .ts files instead would
# cost the process ~30 MiB of RSS.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# package.json: "type": "module" makes Node load the files as ES modules.
COPY package.json ./
COPY hack/build/ hack/build/
COPY operator/ operator/
COPY ironic-client/ ironic-client/
RUN node --disable-warning=ExperimentalWarning hack/build/cli.ts operator/main.ts

# Stage 3: the runtime: the built files and the production dependencies.
FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production
COPY package.json ./
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The uid and gid the Deployments in deploy/ run as; nothing in /app is writable by it.
USER 65532:65532
# V8 flags and MALLOC_ARENA_MAX: operator/node-flags.ts decides them (less RSS).
ENV MALLOC_ARENA_MAX=2
ENTRYPOINT ["node", "--disable-warning=ExperimentalWarning", "--max-semi-space-size=2", "--heap-growing-percent=50", "--optimize-for-size", "dist/operator/main.js"]
