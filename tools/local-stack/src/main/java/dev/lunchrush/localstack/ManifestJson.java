package dev.lunchrush.localstack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Reads the stack manifest's JSON into maps, lists, strings, longs, booleans and nulls: every JSON value but
 * fractions and exponents, which the manifest has none of. Written out so that reading the manifest costs the
 * {@code demo} command's start nothing: a data-binding library's class loading outweighs the command itself.
 */
final class ManifestJson {

    private final String text;
    private int at;

    private ManifestJson(String text) {
        this.text = text;
    }

    static @Nullable Object parse(String text) {
        ManifestJson parser = new ManifestJson(text);
        Object value = parser.value();
        parser.space();
        if (parser.at != text.length()) {
            throw parser.error("text after the value");
        }
        return value;
    }

    private @Nullable Object value() {
        space();
        if (at >= text.length()) {
            throw error("a value is missing");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            default -> number();
        };
    }

    private Map<String, @Nullable Object> object() {
        Map<String, @Nullable Object> object = new LinkedHashMap<>();
        at++;
        space();
        if (peek('}')) {
            return object;
        }
        do {
            space();
            String key = string();
            space();
            expect(':');
            object.put(key, value());
            space();
        }
        while (next(','));
        expect('}');
        return object;
    }

    private List<@Nullable Object> array() {
        List<@Nullable Object> array = new ArrayList<>();
        at++;
        space();
        if (peek(']')) {
            return array;
        }
        do {
            array.add(value());
            space();
        }
        while (next(','));
        expect(']');
        return array;
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (at < text.length() && text.charAt(at) != '"') {
            char c = text.charAt(at++);
            if (c == '\\') {
                char escaped = text.charAt(at++);
                switch (escaped) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> out.append(escaped);
                }
            }
            else {
                out.append(c);
            }
        }
        expect('"');
        return out.toString();
    }

    private Long number() {
        int start = at;
        if (at < text.length() && text.charAt(at) == '-') {
            at++;
        }
        while (at < text.length() && Character.isDigit(text.charAt(at))) {
            at++;
        }
        if (start == at || at == start + 1 && text.charAt(start) == '-') {
            throw error("not a value");
        }
        return Long.parseLong(text.substring(start, at));
    }

    private @Nullable Object word(String word, @Nullable Object value) {
        if (!text.startsWith(word, at)) {
            throw error("not a value");
        }
        at += word.length();
        return value;
    }

    private void space() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private boolean peek(char c) {
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private boolean next(char c) {
        space();
        return peek(c);
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("'" + c + "' expected");
        }
    }

    private IllegalStateException error(String problem) {
        return new IllegalStateException(StackManifest.RESOURCE + ": " + problem + " at character " + at);
    }
}
