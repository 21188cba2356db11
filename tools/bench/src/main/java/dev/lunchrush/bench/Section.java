package dev.lunchrush.bench;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** The sections of {@code ./demo bench}, in the order they run. */
public enum Section {

    CPU, INTAKE, RABBITMQ, E2E, MEMORY, REPLAY, SCALE;

    /** What {@code ./demo bench} runs when no section is named: all but the seed's volume, which takes its own hour. */
    public static Set<Section> byDefault(boolean smoke) {
        EnumSet<Section> sections = EnumSet.allOf(Section.class);
        if (!smoke) {
            sections.remove(SCALE);
        }
        return sections;
    }

    /** The section of that name, in any case ({@code cpu}, {@code E2E}); fails naming them all. */
    public static Section named(String name) {
        try {
            return valueOf(name.strip().toUpperCase(Locale.ROOT));
        }
        catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("no section '" + name + "'; the sections are: " + names(), ex);
        }
    }

    static String names() {
        return Arrays.stream(values()).map(section -> section.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", "));
    }
}
