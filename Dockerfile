# prospectkit-mock, the standalone mock of the Prospect API, as a container image for integrators
# without Node (docs/server.md, "Run it in a container").
#
#   npm run build && npm run image     # docker build; `npm run image -- podman` for another engine
#
# `npm run image` (scripts/image.mjs) packs the package as it is published (npm run tarball),
# installs that tarball with its dependencies (at package-lock.json's versions) into .image/,
# the only thing .dockerignore lets into the build context, and builds this file with the labels
# read from package.json. The build reaches no registry but the one that serves the FROM image.
FROM node:24-bookworm-slim

ARG VERSION
ARG SOURCE
ARG LICENSES
LABEL org.opencontainers.image.title="prospectkit-mock" \
      org.opencontainers.image.description="The Prospect Activity, Page and Webhook Subscription API as a stateful mock server, with a control API, a console, webhooks and OpenAPI 3.1" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="${LICENSES}"

# The package and its dependencies, owned by root: the server cannot change its own code.
COPY .image/node_modules /opt/prospectkit/node_modules
# Where --state keeps its file (the default below): a volume the server's user may write.
RUN mkdir /data && chown node:node /data
VOLUME /data
WORKDIR /data
USER node

# Every interface of the container, so that `-p 4010:4010` reaches it. The Host and Origin checks
# still apply: widen them with --allowed-host and --cors-origin as arguments. The key comes from
# --api-key or PROSPECTKIT_API_KEY (never printed), else the development key mock_api_key.
ENV PROSPECTKIT_MOCK_HOST=0.0.0.0
EXPOSE 4010

# A cheap route, without curl: the cached OpenAPI document, headers only. The console's marker
# header keeps the probe out of the request lines.
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:4010/openapi.json',{method:'HEAD',headers:{'x-prospectkit-console':'health'}}).then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# Node is process 1 and the CLI handles SIGTERM itself: `docker stop` ends it within 2 s, exit 0.
# Arguments replace CMD: add --state /data/state.jsonl to yours to keep the state.
ENTRYPOINT ["node", "/opt/prospectkit/node_modules/prospectkit/dist/mock/server/cli.js"]
CMD ["--state", "/data/state.jsonl"]
