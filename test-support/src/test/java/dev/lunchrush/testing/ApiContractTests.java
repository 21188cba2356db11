package dev.lunchrush.testing;

import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.testing.ApiContract.Mapping;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ApiContract#compare}: a mapping added without its documentation fails the contract. */
class ApiContractTests {

    private static final JsonNode DOCUMENT = JsonMapper.builder().build().readTree("""
            {"openapi": "3.1.0", "paths": {
              "/menu": {"get": {"summary": "The menu", "responses": {"200": {"description": "OK"}}}},
              "/api/stats": {"get": {"responses": {"200": {"description": "OK"}}}}}}""");

    @Test
    void documentedMappingsPass() {
        assertThat(ApiContract.compare(DOCUMENT, Set.of(new Mapping("get", "/menu"), new Mapping("GET", "/api/stats"))))
                .containsExactly("GET /api/stats: mapped, but not documented (no @Operation summary)");
    }

    @Test
    void aMappingMissingFromTheDocumentFails() {
        assertThat(ApiContract.compare(DOCUMENT, Set.of(new Mapping("GET", "/menu"), new Mapping("GET", "/api/stats"),
                new Mapping("DELETE", "/menu")))).contains("DELETE /menu: mapped, but not in the document");
    }

    @Test
    void aDocumentedPathThatNothingMapsFails() {
        assertThat(ApiContract.compare(DOCUMENT, Set.of(new Mapping("GET", "/api/stats"))))
                .contains("GET /menu: in the document, but no handler maps it");
    }
}
