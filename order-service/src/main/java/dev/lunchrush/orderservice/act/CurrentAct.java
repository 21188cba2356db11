package dev.lunchrush.orderservice.act;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

import dev.lunchrush.orderservice.OrderServiceProperties;

/**
 * The current act, read on every order from memory and written through to {@code act.json} in the
 * data folder, so that a restarted order service goes on writing where it wrote before.
 */
@Component
public class CurrentAct {

    private static final Logger log = LoggerFactory.getLogger(CurrentAct.class);

    private final Path file;
    private final JsonMapper json;
    private final ApplicationEventPublisher events;
    private volatile ActState state;

    CurrentAct(OrderServiceProperties properties, JsonMapper json, ApplicationEventPublisher events) {
        this.file = properties.dataDir().resolve("act.json");
        this.json = json;
        this.events = events;
        this.state = load();
        log.info("current act: {} ({} of {} for the feed), kept in {}", state.act().id(), state.strategy().id(),
                state.capacity(), file.toAbsolutePath());
    }

    public ActState get() {
        return state;
    }

    /** Persists the new state first: an act that was answered 200 survives a crash. */
    public synchronized ActState change(ActState next) {
        ActState previous = state;
        save(next);
        state = next;
        log.info("act switched from {} to {} (feed: {}, capacity {})", previous.act().id(), next.act().id(),
                next.strategy().id(), next.capacity());
        events.publishEvent(new ActChanged(previous, next));
        return next;
    }

    private ActState load() {
        if (!Files.isRegularFile(file)) {
            return ActState.initial();
        }
        try {
            ActState loaded = json.readValue(file.toFile(), ActState.class);
            if (loaded == null || loaded.act() == null || loaded.strategy() == null || loaded.capacity() <= 0) {
                throw new IllegalStateException("incomplete: " + loaded);
            }
            return loaded;
        }
        catch (JacksonException | IllegalStateException | IllegalArgumentException ex) {
            // a damaged file must not keep the service from starting: say so and start from act 1
            log.warn("could not read {} ({}); starting with the default act", file.toAbsolutePath(), ex.getMessage());
            return ActState.initial();
        }
    }

    private void save(ActState next) {
        try {
            Files.createDirectories(file.getParent());
            Path temporary = file.resolveSibling("act.json.tmp");
            Files.write(temporary, json.writeValueAsBytes(next));
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("could not write " + file.toAbsolutePath(), ex);
        }
    }
}
