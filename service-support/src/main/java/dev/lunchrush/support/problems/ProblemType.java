package dev.lunchrush.support.problems;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * Every kind of problem the services answer, each with the {@code type} URI of its problem document (RFC 9457),
 * its status and its title. A client tells one kind from another by the type, never by the title or the detail: two
 * 503s of the order service, "outcome unknown" and "still running", differ by type alone. The URIs are identifiers,
 * served nowhere; what each means, and what a client does about it, is {@code docs/problems.md}. A type, once
 * published, keeps its URI and its meaning; a new kind gets a new one.
 *
 * <p>Spring's own problems (an unknown path, a wrong method, an unreadable body …) are of the kind of their status
 * ({@link #forStatus}): each service's problem handler gives them its type.
 */
public enum ProblemType {

    /** A field, a parameter, a header or the body is wrong; {@code errors} (or {@code field}) names it. */
    INVALID_INPUT("invalid-input", HttpStatus.BAD_REQUEST, "Bad Request"),

    /**
     * Refused before any handler, by Spring Security's firewall or by the web server itself: a path or a header it
     * takes for unsafe.
     */
    REJECTED_REQUEST("rejected-request", HttpStatus.BAD_REQUEST, "Bad Request"),

    /** No credentials, or not the right ones; answered with a Basic challenge. */
    UNAUTHORIZED("unauthorized", HttpStatus.UNAUTHORIZED, "Unauthorized"),

    /** Credentials of a user who may not do this (the viewer, where the admin is needed). */
    FORBIDDEN("forbidden", HttpStatus.FORBIDDEN, "Forbidden"),

    /** No such path, or no such thing (an order, a replay, a rush, a report) behind it. */
    NOT_FOUND("not-found", HttpStatus.NOT_FOUND, "Not Found"),

    /** The path takes other methods, listed in {@code Allow}. */
    METHOD_NOT_ALLOWED("method-not-allowed", HttpStatus.METHOD_NOT_ALLOWED, "Method Not Allowed"),

    /** None of the media types of {@code Accept} can be answered. */
    NOT_ACCEPTABLE("not-acceptable", HttpStatus.NOT_ACCEPTABLE, "Not Acceptable"),

    /** The body did not come whole within the server's request timeout; the connection is closed. */
    REQUEST_TIMEOUT("request-timeout", HttpStatus.REQUEST_TIMEOUT, "Request Timeout"),

    /** Something else runs that this would clash with (a replay, a rush, a consumer group with members). */
    CONFLICT("conflict", HttpStatus.CONFLICT, "Conflict"),

    /**
     * The order service: the first request with this Idempotency-Key went to RabbitMQ, whose answer never came and
     * never will; the order may be placed or not, and is not placed again under this key.
     */
    OUTCOME_LOST("outcome-lost", HttpStatus.CONFLICT, "Outcome unknown"),

    /** The body is larger than the service takes; the connection is closed. */
    BODY_TOO_LARGE("body-too-large", HttpStatus.CONTENT_TOO_LARGE, "Content Too Large"),

    /** The body's {@code Content-Type} is not one the operation reads. */
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported Media Type"),

    /** The order service: this Idempotency-Key came with another request before. */
    IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", HttpStatus.UNPROCESSABLE_CONTENT, "Idempotency-Key reused"),

    /** The order service, act 3 under {@code throttle}: the feed is full; {@code Retry-After} says when to ask again. */
    FEED_FULL("feed-full", HttpStatus.TOO_MANY_REQUESTS, "Feed full"),

    /** A bug of the service's; its log has the rest. */
    INTERNAL_ERROR("internal-error", HttpStatus.INTERNAL_SERVER_ERROR, "Internal error"),

    /** The control room: a service of the stack did not answer, or refused what it was asked. */
    STACK_FAILED("stack-failed", HttpStatus.BAD_GATEWAY, "The stack did not do it"),

    /**
     * The order service: the order (or batch) was not taken, and nothing of it was written: a broker down or
     * blocking publishers, the feed full under {@code block}, too many requests waiting.
     */
    NOT_ACCEPTED("not-accepted", HttpStatus.SERVICE_UNAVAILABLE, "Order not accepted"),

    /**
     * The order service: the write went to a broker that did not say in time whether it wrote it; it may be written
     * or not. The same request again, with the same Idempotency-Key, learns the outcome.
     */
    OUTCOME_UNKNOWN("outcome-unknown", HttpStatus.SERVICE_UNAVAILABLE, "Outcome unknown"),

    /** The order service: the first request with this Idempotency-Key is still under way. */
    STILL_RUNNING("still-running", HttpStatus.SERVICE_UNAVAILABLE, "Order not accepted"),

    /** As many live pages are open as the service serves at once; {@code Retry-After} says when to try again. */
    TOO_MANY_STREAMS("too-many-streams", HttpStatus.SERVICE_UNAVAILABLE, "Too many live pages"),

    /** Something the service needs is not there now (Kafka's log, or the service itself is stopping). */
    UNAVAILABLE("unavailable", HttpStatus.SERVICE_UNAVAILABLE, "Service Unavailable");

    /** Where every type's URI starts. */
    public static final String BASE = "https://lunchrush.dev/problems/";

    /** The kind of each status that Spring's own problems come with. */
    private static final Map<Integer, ProblemType> BY_STATUS = Map.ofEntries(
            Map.entry(400, INVALID_INPUT), Map.entry(401, UNAUTHORIZED), Map.entry(403, FORBIDDEN),
            Map.entry(404, NOT_FOUND), Map.entry(405, METHOD_NOT_ALLOWED), Map.entry(406, NOT_ACCEPTABLE),
            Map.entry(408, REQUEST_TIMEOUT), Map.entry(409, CONFLICT), Map.entry(413, BODY_TOO_LARGE),
            Map.entry(415, UNSUPPORTED_MEDIA_TYPE), Map.entry(500, INTERNAL_ERROR), Map.entry(503, UNAVAILABLE));

    private static final URI ABOUT_BLANK = URI.create("about:blank");

    private final String slug;
    private final URI uri;
    private final HttpStatus status;
    private final String title;

    ProblemType(String slug, HttpStatus status, String title) {
        this.slug = slug;
        this.uri = URI.create(BASE + slug);
        this.status = status;
        this.title = title;
    }

    /** The last segment of the type's URI. */
    public String slug() {
        return slug;
    }

    /** The problem document's {@code type}. */
    public URI uri() {
        return uri;
    }

    public HttpStatus status() {
        return status;
    }

    /** The title a problem of this kind has unless its service gives a more precise one. */
    public String title() {
        return title;
    }

    /** A problem document of this kind: its type, status and title, and {@code detail}. */
    public ProblemDetail problem(@Nullable String detail) {
        ProblemDetail problem = ProblemDetail.forStatus(status);
        problem.setType(uri);
        problem.setTitle(title);
        problem.setDetail(detail);
        return problem;
    }

    /** The kind a problem of Spring's with {@code status} is of, if any is. */
    public static Optional<ProblemType> forStatus(int status) {
        return Optional.ofNullable(BY_STATUS.get(status));
    }

    /**
     * {@code problem} with the type of its status ({@link #forStatus}) where it has none of its own yet
     * ({@code about:blank}); its title and detail stay as they are.
     */
    public static ProblemDetail typed(ProblemDetail problem) {
        URI type = problem.getType();
        if (type == null || ABOUT_BLANK.equals(type)) {
            forStatus(problem.getStatus()).ifPresent(kind -> problem.setType(kind.uri()));
        }
        return problem;
    }
}
