# One image recipe for every Lunch Rush service:
#   docker build --build-arg SERVICE=order-service -t lunchrush/order-service .
# Plain Dockerfile instructions only (no RUN --mount, no syntax line): BuildKit, which docker compose
# uses by default, and the classic builder build it alike. What keeps a rebuild small:
# - Maven's downloads happen in a layer keyed by the wrapper and the poms alone: a change to a source
#   file downloads nothing again;
# - the build context is an allow list (.dockerignore): the poms and src/main of the modules built, so
#   an edit to a README, a test or a compose file rebuilds nothing;
# - the runtime image holds Spring Boot's four layers, one COPY each, the least changing first: a
#   change to a service's code ships its application layer (under 1 MB), not its dependencies (up to
#   120 MB).
# The build stage does not depend on SERVICE, so Docker builds the reactor once and every service's
# image reuses that cached stage; only the small runtime stage differs.

FROM eclipse-temurin:17-jdk AS build
WORKDIR /workspace
# The services and what they need (-am): the scenario and architecture tests, the micro-benchmarks and
# the launcher's own Kafka broker and Zipkin (tools/kafka-broker, tools/zipkin-server) have no place in an image, but their poms are
# copied: the reactor lists them.
ARG MODULES=order-service,kitchen-screen,analytics-dashboard,report-replayer,backlog-monitor,tools/demo-cli,control-room
COPY mvnw ./
COPY .mvn/ .mvn/
COPY pom.xml ./
COPY order-events/pom.xml order-events/
COPY service-support/pom.xml service-support/
COPY process-support/pom.xml process-support/
COPY lesson/pom.xml lesson/
COPY test-support/pom.xml test-support/
COPY tools/kafka-broker/pom.xml tools/kafka-broker/
COPY tools/zipkin-server/pom.xml tools/zipkin-server/
COPY order-service/pom.xml order-service/
COPY kitchen-screen/pom.xml kitchen-screen/
COPY analytics-dashboard/pom.xml analytics-dashboard/
COPY report-replayer/pom.xml report-replayer/
COPY backlog-monitor/pom.xml backlog-monitor/
COPY tools/local-stack/pom.xml tools/local-stack/
COPY tools/load/pom.xml tools/load/
COPY tools/chaos/pom.xml tools/chaos/
COPY tools/bench/pom.xml tools/bench/
COPY tools/demo-cli/pom.xml tools/demo-cli/
COPY control-room/pom.xml control-room/
COPY tools/micro-bench/pom.xml tools/micro-bench/
COPY scenario-tests/pom.xml scenario-tests/
COPY architecture-tests/pom.xml architecture-tests/
# The build below, on modules without sources: Maven itself, every plugin and every dependency of the
# modules built are downloaded into this layer. (There is nothing to repackage yet: no main class.)
# No tests, so no check of what the tests need (infra/test-prerequisites) either.
RUN chmod +x mvnw \
    && ./mvnw -q -B -ntp package -Dmaven.test.skip=true -Dlunchrush.prerequisites.skip=true \
        -Dspring-boot.repackage.skip=true -pl "${MODULES}" -am \
    && rm -rf ./*/target ./tools/*/target
# The sources. Tests are not compiled (their sources are not in the context): they need brokers and
# run in CI (./mvnw verify), not in an image build. Then each jar into its layers (extract-layers.sh).
COPY . .
RUN ./mvnw -q -B -ntp package -Dmaven.test.skip=true -Dlunchrush.prerequisites.skip=true -pl "${MODULES}" -am \
    && sh infra/image/extract-layers.sh /workspace/layers \
        $(echo "${MODULES}" | tr ',' '\n' | sed 's|\(.*/\)*\([^/]*\)$|&/target/\2.jar|')

FROM eclipse-temurin:17-jre AS runtime
# SERVICE: the module's name, the last part of its folder (tools/demo-cli: demo-cli)
ARG SERVICE
# Fail the build early and clearly instead of copying nothing.
RUN test -n "${SERVICE}" || (echo "build with --build-arg SERVICE=<module>, e.g. order-service" >&2; exit 1)
# curl for the HEALTHCHECK below (and the compose healthchecks); installed explicitly so that the check
# does not depend on what the base image happens to ship.
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/*
# A system user of our own: the services never need root. /data is where services keep their files
# (LUNCHRUSH_DATA_DIR); a named volume mounted there inherits this ownership. Group 10001 also reads
# the passwords of the secrets volume (infra/secrets/make-secrets.sh).
RUN groupadd --system --gid 10001 lunchrush \
    && useradd --system --uid 10001 --gid lunchrush --home-dir /app --shell /usr/sbin/nologin lunchrush \
    && mkdir -p /app /data \
    && chown lunchrush:lunchrush /data
WORKDIR /app
# Spring Boot's layers, the least changing first, each an image layer of its own (owned by root: the
# service reads its code, it cannot change it). The application layer alone changes with the code.
COPY --from=build /workspace/layers/${SERVICE}/dependencies/ ./
COPY --from=build /workspace/layers/${SERVICE}/spring-boot-loader/ ./
COPY --from=build /workspace/layers/${SERVICE}/snapshot-dependencies/ ./
COPY --from=build /workspace/layers/${SERVICE}/application/ ./
USER lunchrush
ENV LUNCHRUSH_DATA_DIR=/data \
    SERVER_PORT=8080 \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=60 -XX:+ExitOnOutOfMemoryError"
# JAVA_TOOL_OPTIONS is a default: compose (or docker run -e) replaces it per service, as it does for
# the order service, whose heap is part of the lesson.
# SERVER_PORT is also what the health check asks; compose sets it to each service's own port. Readiness: what the
# service needs in the current act answers (the order service in the log act is ready with RabbitMQ stopped).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=6 \
    CMD curl -fsS "http://127.0.0.1:${SERVER_PORT}/actuator/health/readiness" >/dev/null || exit 1
# The extracted jar's own launcher, on the four layers in /app.
ENTRYPOINT ["java", "-cp", "/app", "org.springframework.boot.loader.launch.JarLauncher"]
