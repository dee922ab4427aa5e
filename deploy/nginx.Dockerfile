# nginx from Debian's packages, with deploy/nginx.conf: the proxy in front of the playground
# instances (deploy/compose.yaml). Built from the repository root.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx-light \
    && rm -rf /var/lib/apt/lists/* \
    && nginx -v
COPY deploy/nginx.conf /etc/nginx/nginx.conf
EXPOSE 8080
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
