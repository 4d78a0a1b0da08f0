# The container image (SPEC Deployment facts): built from source with the default build
# switches (no relational stores, no remote workers, no script plugin), run as the
# unprivileged user 65532 on a distroless base that has no shell and no package manager.
# It listens on all interfaces and runs the prod profile, so it needs a key to start:
#   docker build -t workflow-service .
#   docker run -p 8080:8080 -e SVC_API_KEY=... workflow-service

FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build
# Only what the server needs at run time.
RUN npm ci --omit=dev
# The working directory of the server, owned by the user it runs as: the file stores'
# relative default directories (data/sessions, data/checkpoints, data/files) land in it.
RUN mkdir -p /data/data

FROM gcr.io/distroless/nodejs24-debian12:nonroot
COPY --from=build /src/package.json /app/
COPY --from=build /src/node_modules /app/node_modules
COPY --from=build /src/dist /app/dist
COPY --from=build --chown=65532:65532 /data /data
WORKDIR /data
USER 65532:65532
ENV SVC_SERVER_ADDRESS=0.0.0.0 \
    SVC_PROFILES_ACTIVE=prod \
    NODE_ENV=production
EXPOSE 8080
VOLUME ["/data"]
# The base image's entry point is node.
CMD ["/app/dist/main.js"]
