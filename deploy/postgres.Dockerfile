# PostgreSQL from Debian's packages: the links' store the playground instances share
# (deploy/compose.yaml, `--database postgres://…`). Built from the repository root. Its data is a
# volume; the first start makes the cluster, the role `playground` (password from
# POSTGRES_PASSWORD) and its database, and later starts keep what is there.
FROM debian:bookworm-slim
# Debian's package would make a cluster of its own ("main"): this image makes one on its volume.
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-common \
    && sed -ri 's/^#?\s*create_main_cluster.*/create_main_cluster = false/' /etc/postgresql-common/createcluster.conf \
    && apt-get install -y --no-install-recommends postgresql-15 \
    && rm -rf /var/lib/apt/lists/* \
    && install -d -o postgres -g postgres /var/lib/postgresql/data /run/postgresql
COPY deploy/postgres-start.sh /usr/local/bin/postgres-start
# The server's data, and where its tools (pg_dump, psql) find it.
ENV PGDATA=/var/lib/postgresql/data PGHOST=/run/postgresql PGPORT=5432
VOLUME /var/lib/postgresql/data
USER postgres
EXPOSE 5432
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=3 \
    CMD ["/usr/lib/postgresql/15/bin/pg_isready", "-h", "127.0.0.1", "-U", "playground", "-d", "playground"]
# PostgreSQL's "fast" shutdown: open transactions are rolled back, the data is flushed.
STOPSIGNAL SIGINT
CMD ["postgres-start"]
