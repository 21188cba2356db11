# syntax=docker/dockerfile:1
# One image recipe for every Lunch Rush service:
#   docker build --build-arg SERVICE=order-service -t lunchrush/order-service .
# The build stage does not depend on SERVICE, so Docker builds the reactor once and every service's
# image reuses that cached stage; only the small runtime stage differs.

FROM eclipse-temurin:17-jdk AS build
WORKDIR /workspace
COPY . .
# Maven's downloads live in a BuildKit cache mount, so a change to the sources does not download the
# world again. -DskipTests: the tests need brokers and run in CI (./mvnw verify), not in an image build.
# Only the services and what they need (-am): the scenario tests and the launcher's own Kafka broker
# (infra/kafka-broker) have no place in an image.
RUN --mount=type=cache,target=/root/.m2 \
    chmod +x mvnw && ./mvnw -q -B -ntp -DskipTests package -am \
        -pl order-service,kitchen-screen,analytics-dashboard,report-replayer,backlog-monitor,load-generator

FROM eclipse-temurin:17-jre AS runtime
ARG SERVICE
# Fail the build early and clearly instead of copying nothing.
RUN test -n "${SERVICE}" || (echo "build with --build-arg SERVICE=<module>, e.g. order-service" >&2; exit 1)
# curl for the HEALTHCHECK below (and the compose healthchecks); installed explicitly so that the check
# does not depend on what the base image happens to ship.
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/*
# A system user of our own: the services never need root. /data is where services keep their files
# (LUNCHRUSH_DATA_DIR); a named volume mounted there inherits this ownership.
RUN groupadd --system --gid 10001 lunchrush \
    && useradd --system --uid 10001 --gid lunchrush --home-dir /app --shell /usr/sbin/nologin lunchrush \
    && mkdir -p /app /data \
    && chown lunchrush:lunchrush /data
WORKDIR /app
COPY --from=build --chown=root:root /workspace/${SERVICE}/target/${SERVICE}.jar /app/service.jar
USER lunchrush
ENV LUNCHRUSH_DATA_DIR=/data \
    SERVER_PORT=8080 \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=60 -XX:+ExitOnOutOfMemoryError"
# JAVA_TOOL_OPTIONS is a default: compose (or docker run -e) replaces it per service, as it does for
# the order service, whose heap is part of the lesson.
# SERVER_PORT is also what the health check asks; compose sets it to each service's own port.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=6 \
    CMD curl -fsS "http://127.0.0.1:${SERVER_PORT}/actuator/health" >/dev/null || exit 1
ENTRYPOINT ["java", "-jar", "/app/service.jar"]
