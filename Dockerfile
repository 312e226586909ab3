# The command line in an image: Debian's Node 20 and Chromium (for the browser checks of 4.6 and 7.1).
#   docker build -t agent-platform-conformance .
#   docker run --rm --network host --user "$(id -u)" -v "$PWD/reports:/work/reports" agent-platform-conformance run --base-url https://platform.example
# --network host lets the deployment reach the fixture host the run starts (else: --fixture-port N -p N:N --fixture-url URL).

# Build the package from this checkout (npm ci runs prepare, which builds dist/) and pack it as npm would publish it.
FROM node:20-bookworm-slim AS pack
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund && npm pack --silent && mv agent-platform-conformance-*.tgz /tmp/package.tgz

FROM node:20-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium ca-certificates \
  && rm -rf /var/lib/apt/lists/*
COPY --from=pack /tmp/package.tgz /tmp/package.tgz
RUN npm install --global --omit=dev --no-audit --no-fund /tmp/package.tgz && rm /tmp/package.tgz && npm cache clean --force
ENV CHROMIUM_PATH=/usr/bin/chromium
# Reports go to /work/reports by default (run --out): mount a folder there to keep them.
WORKDIR /work
RUN chown node:node /work
USER node
ENTRYPOINT ["agent-platform-conformance"]
CMD ["--help"]
