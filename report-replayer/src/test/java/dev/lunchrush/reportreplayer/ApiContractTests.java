package dev.lunchrush.reportreplayer;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.testing.ApiContract;
import dev.lunchrush.testing.ServiceApiContract;

import static org.assertj.core.api.Assertions.assertThat;

/** The report replayer's OpenAPI document against the running service, both ways ({@link ServiceApiContract}). */
@ReplayerOnBrokersTest
class ApiContractTests extends ServiceApiContract {

    /** The bodies' constraints, declared once on their records, are the document's. */
    @Test
    void theBodiesConstraintsAreDocumented() {
        JsonNode schemas = ApiContract.document(base()).path("components").path("schemas");
        JsonNode replay = schemas.path("ReplayRequest");
        assertThat(replay.path("required").valueStream().map(JsonNode::asString)).containsExactly("date");
        assertThat(replay.path("properties").path("date").path("pattern").asString()).isEqualTo("[0-9]{4}-[0-9]{2}-[0-9]{2}");
        assertThat(replay.path("properties").path("zone").path("maxLength").asInt()).isEqualTo(64);
        JsonNode reset = schemas.path("ResetRequest");
        assertThat(reset.path("required").valueStream().map(JsonNode::asString)).containsExactly("toDatetime");
        assertThat(reset.path("properties").path("toDatetime").path("maxLength").asInt()).isEqualTo(64);
    }
}
