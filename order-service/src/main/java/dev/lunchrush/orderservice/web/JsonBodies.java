package dev.lunchrush.orderservice.web;

import java.util.List;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;

/** A JSON request body read strictly: an order, an import batch, an act. */
public final class JsonBodies {

    /** Strict: duplicate keys and trailing content are errors, not "last one wins". */
    private static final JsonMapper STRICT = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private JsonBodies() {
    }

    /** Parses JSON or answers 400 with where the parser gave up. */
    public static JsonNode readTree(byte[] body, String title) {
        if (body.length == 0) {
            throw ProblemException.invalid(title, List.of(new FieldProblem("", "the body is empty")));
        }
        try {
            JsonNode root = STRICT.readTree(body);
            if (root == null || root.isMissingNode()) {
                throw ProblemException.invalid(title, List.of(new FieldProblem("", "the body is empty")));
            }
            return root;
        }
        catch (JacksonException ex) {
            String where = ex.getLocation() == null ? ""
                    : " at line " + ex.getLocation().getLineNr() + ", column " + ex.getLocation().getColumnNr();
            throw ProblemException.invalid(title,
                    List.of(new FieldProblem("", "not valid JSON" + where + ": " + ex.getOriginalMessage())));
        }
    }
}
