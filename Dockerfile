# The oracle as a container: `canasta-oracle serve` on 0.0.0.0, gRPC on 50051 and HTTP (Connect, JSON, the web
# page) on 8080, as a non-root user, with a HEALTHCHECK that asks the gRPC health service.
#   docker build -t canasta-oracle .
#   docker run --rm -p 50051:50051 -p 8080:8080 canasta-oracle
# Every serve option is an environment variable (CANASTA_ORACLE_*; see the README's "Container" section).

# Build the wheel from the repository's own files, with the compiled core (setup.py: the rules and games layers
# compiled by mypyc, answering as the pure ones; `--build-arg CANASTA_ORACLE_COMPILE=0` builds the pure wheel).
# The C compiler stays in this stage: the image gets the wheel only.
FROM python:3.11-slim AS build
ARG CANASTA_ORACLE_COMPILE=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY oracle ./oracle
COPY specs ./specs
COPY conformance ./conformance
COPY proto ./proto
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

# The image: the wheel and its dependencies, nothing else from the build.
FROM python:3.11-slim
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-cache-dir /wheels/*.whl \
    && groupadd --system --gid 10001 oracle \
    && useradd --system --uid 10001 --gid oracle --create-home --home-dir /home/oracle oracle
USER 10001:10001
WORKDIR /home/oracle
ENV PYTHONUNBUFFERED=1 \
    CANASTA_ORACLE_HOST=0.0.0.0 \
    CANASTA_ORACLE_PORT=50051 \
    CANASTA_ORACLE_HTTP_PORT=8080 \
    CANASTA_ORACLE_CACHE=/home/oracle/.cache/canasta-oracle
EXPOSE 50051 8080
# The gRPC health service on the container's own port (CANASTA_ORACLE_PORT): SERVING exits 0, anything else 1.
# The first start lints the rule sets (later starts read the cache), hence the start period.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["canasta-oracle", "health", "--host", "127.0.0.1", "--timeout", "3"]
# SIGTERM: health NOT_SERVING, a drain, then a grace period for calls in flight (CANASTA_ORACLE_DRAIN_SECONDS,
# CANASTA_ORACLE_GRACE_SECONDS); give `docker stop` a longer timeout than their sum.
STOPSIGNAL SIGTERM
ENTRYPOINT ["canasta-oracle", "serve"]
