package dev.lunchrush.localstack;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.lunchrush.events.Source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class StackManifestTests {

    private final StackManifest manifest = StackManifest.get();

    @Test
    void theServicesAreTheDesignsOnItsPortsInStartOrder() {
        assertThat(manifest.services()).extracting(StackManifest.Service::name).containsExactly("order-service",
                "kitchen-screen", "analytics-dashboard", "report-replayer", "backlog-monitor", "control-room");
        assertThat(manifest.services()).extracting(StackManifest.Service::port).containsExactly(8080, 8081, 8082, 8083,
                8084, 8085);
        assertThat(manifest.services()).allSatisfy(service -> assertThat(service.health()).startsWith("/actuator/health"));
        assertThat(manifest.lessonServices()).extracting(StackManifest.Service::name).doesNotContain("control-room")
                .hasSize(5);
        assertThat(manifest.port("kafka")).isEqualTo(9092);
        assertThat(manifest.port("rabbitmq")).isEqualTo(5672);
        assertThat(manifest.port("prometheus")).isEqualTo(9090);
    }

    @Test
    void theReadersReadTheSourcesTheirCountersName() {
        assertThat(manifest.readers()).extracting(StackManifest.Service::name)
                .containsExactly("kitchen-screen", "analytics-dashboard");
        Set<String> sources = Set.of(Source.SHARED_QUEUE, Source.OWN_QUEUE, Source.FEED, Source.KAFKA);
        assertThat(manifest.readers()).allSatisfy(reader -> assertThat(sources).containsAll(reader.reads()));
        assertThat(manifest.service("analytics-dashboard").reads()).contains(Source.FEED);
        assertThat(manifest.service("kitchen-screen").reads()).doesNotContain(Source.FEED);
    }

    @Test
    void theLauncherNamesEveryPageOfTheManifest() {
        assertThat(Launcher.pages()).isEqualTo("kitchen screen http://localhost:8081, dashboard http://localhost:8082, "
                + "replays http://localhost:8083, backlog http://localhost:8084, control room http://localhost:8085");
        assertThat(LocalStack.SERVICES).isEqualTo(manifest.services().stream().map(StackManifest.Service::name).toList());
        assertThat(Prometheus.local("control-room:8085")).isEqualTo("127.0.0.1:8085");
        assertThat(Prometheus.local("somewhere-else:8085")).isEqualTo("somewhere-else:8085");
        assertThat(Prometheus.local("kafka-exporter:9308")).as("compose only: left out").isNull();
    }

    @Test
    void theManifestIsReadAsJson() {
        StackManifest read = StackManifest.parse("""
                {"services": [{"name": "a", "module": "a-module", "port": 1, "health": "/h", "reads": ["kafka"],
                  "page": "the \\"a\\" page", "lesson": true}, {"name": "b", "module": "b", "port": 2, "health": "/h",
                  "reads": [], "page": null}], "infrastructure": [{"name": "kafka", "port": 9092}]}""");
        assertThat(read.services()).containsExactly(
                new StackManifest.Service("a", "a-module", 1, "/h", List.of("kafka"), "the \"a\" page", true),
                new StackManifest.Service("b", "b", 2, "/h", List.of(), null, false));
        assertThat(read.port("kafka")).isEqualTo(9092);
        assertThatIllegalStateException().isThrownBy(() -> StackManifest.parse("{\"services\": [{\"name\": \"a\"}]}"));
        assertThatIllegalStateException().isThrownBy(() -> StackManifest.parse("{\"services\": [}"));
    }

    @Test
    void anUnknownNameIsAnError() {
        assertThatIllegalArgumentException().isThrownBy(() -> manifest.service("kitchen"));
        assertThatIllegalArgumentException().isThrownBy(() -> manifest.port("zookeeper"));
        assertThat(manifest.infrastructure()).extracting(StackManifest.Infrastructure::name)
                .containsExactly("rabbitmq", "kafka", "prometheus", "zipkin");
    }
}
