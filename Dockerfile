# Reactive Playground: build with the official Swift image, run on slim Debian as a non-root user.
# Classic-builder compatible (no BuildKit-only syntax).

FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd-dev libsqlite3-dev libpq-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve packages first, so this layer is reused while only the sources change.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product playground \
    && install -D "$(swift build -c release --show-bin-path)/playground" /out/playground
# Reactive's documentation, served under /docs/.
COPY scripts/build-docs.sh ./scripts/build-docs.sh
RUN scripts/build-docs.sh /out/docs

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd12 libsqlite3-0 libpq5 \
    && rm -rf /var/lib/apt/lists/* \
    && install -d -o 10001 -g 10001 /var/lib/playground
WORKDIR /app
COPY --from=build /out/playground /app/playground
COPY Public /app/Public
COPY --from=build /out/docs /app/docs
# The links' database: a volume, so that links outlive the container.
VOLUME /var/lib/playground
USER 10001:10001
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/app/playground", "--healthcheck", "--port", "8080"]
ENTRYPOINT ["/app/playground", "--host", "0.0.0.0", "--port", "8080", "--public", "/app/Public", "--docs", "/app/docs", \
            "--database", "sqlite:/var/lib/playground/playground.sqlite"]
