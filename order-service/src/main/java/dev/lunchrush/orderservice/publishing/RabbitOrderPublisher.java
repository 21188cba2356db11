package dev.lunchrush.orderservice.publishing;

import java.time.Duration;
import java.util.Date;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import com.rabbitmq.client.Channel;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.ReturnedMessage;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.core.RabbitOperations;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.orderservice.OrderServiceProperties;
import dev.lunchrush.orderservice.problems.OutcomeUnknownException;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.tracing.OrderTraces;

/**
 * Publishes an order so that RabbitMQ takes responsibility for it: persistent message, mandatory (a
 * message no queue takes comes back, and that is a failure, not a silent loss), correlated publisher
 * confirm with a timeout. The caller may answer 201 only once the returned future completed; it fails
 * with a 503 problem otherwise. Nobody waits for the confirm on a thread: it completes the future.
 *
 * <p>Orders are published by one thread of their own, in turn ({@link #publish}): the client's socket
 * writes may block (a broker that is away, or pushes back), so never on an event loop, and one thread
 * that stays busy while orders keep coming is woken once per burst, not once per order as a pool's idle
 * threads are. While orders keep coming (one at least every second) that thread publishes them all on one
 * channel ({@link RabbitTemplate#invoke}): RabbitMQ then confirms many orders with one frame, and the channel
 * is not handed back to the cache (and waited on by another thread until its confirms came) after each order.
 * A failed publish ends the channel's turn; the next order gets a fresh one. An order that waited its turn
 * longer than the output timeout is answered 503 and is not sent at all.
 *
 * <p>An order handed to the channel and not confirmed within the output timeout (RabbitMQ's memory alarm
 * blocks publishers, a confirm comes late) may still be confirmed: it is answered with an
 * {@link OutcomeUnknownException} whose outcome is RabbitMQ's real answer, however late, so that a retry under
 * the same Idempotency-Key gets the order's stored answer rather than a second order.
 *
 * <p>A channel or connection that ends before RabbitMQ confirmed an order (the client then reports a nack of its
 * own, with the reason the channel ended) leaves the order's outcome unknown too: the broker may have enqueued it,
 * and AMQP has no way to ask. It is answered {@link OutcomeUnknownException} at once, and published again under
 * the same message id (the order's id) until RabbitMQ confirms it, pausing longer after each attempt that fails;
 * that confirm is its outcome. This is done by a thread of its own, on a channel of its own: a copy that fails (an
 * exchange deleted meanwhile closes its channel) never ends the channel that new orders go on. The order is then in its queue at least once, under one id
 * (a reader may get it twice: at-least-once, as after a broker restart), never as a second order. An order still
 * to be published again when the service stops stays unknown.
 *
 * <p>While RabbitMQ blocks publishing ({@link PublishingBlock}: a memory or disk alarm) an order is refused at
 * once, and one whose turn comes then is not sent: a 503 that says nothing was written, rather than an order that
 * waits in the socket until its deadline.
 */
@Component
public class RabbitOrderPublisher implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(RabbitOrderPublisher.class);

    /** Orders waiting for their turn at most; beyond that an order is answered 503 at once. */
    static final int QUEUE = 10_000;

    /** How long the publisher's thread keeps its channel while no order comes. */
    private static final long IDLE_CHANNEL_MILLIS = 1_000;

    /** The longest pause between two attempts to publish again an order whose confirm was lost. */
    static final Duration MAX_REPUBLISH_PAUSE = Duration.ofSeconds(30);

    private final RabbitTemplate rabbit;
    private final Tracer tracer;
    private final PublishingBlock block;
    private final Duration timeout;
    private final BlockingQueue<Publication> waiting = new LinkedBlockingQueue<>(QUEUE);
    /** Publishes again, each at its time, the orders whose confirm was lost with their channel. */
    private final ScheduledExecutorService republisher;
    private final Counter republished;
    private final Thread publisher;
    private volatile boolean running = true;

    RabbitOrderPublisher(RabbitTemplate rabbit, PublishingBlock block, OrderServiceProperties properties,
            MeterRegistry registry, OrderTraces traces) {
        this.rabbit = rabbit;
        this.tracer = traces.tracer();
        this.block = block;
        this.timeout = properties.outputTimeout();
        CustomizableThreadFactory republishers = new CustomizableThreadFactory("rabbit-republisher-");
        // what it has not published again when the service stops stays unknown; it never holds the JVM up
        republishers.setDaemon(true);
        this.republisher = Executors.newSingleThreadScheduledExecutor(republishers);
        this.republished = Counter.builder("orders.rabbit.republished")
                .description("orders published again because their channel ended before RabbitMQ confirmed them")
                .register(registry);
        // the template must report unroutable messages; the yml says so too, this makes it independent of it
        this.rabbit.setMandatory(true);
        // a returned message is reported to its publisher through its CorrelationData (see confirmed)
        this.rabbit.setReturnsCallback(returned -> log.debug("returned by RabbitMQ: {} {}", returned.getReplyCode(),
                returned.getReplyText()));
        this.publisher = new CustomizableThreadFactory("rabbit-publisher-").newThread(this::publishInTurn);
        this.publisher.start();
    }

    /**
     * Publishes on the publisher's thread, which may wait for the broker's connection (never an event loop);
     * the future completes when RabbitMQ confirmed the message, and fails with a 503 problem when it did not
     * within the output timeout, counted from now: an order still waiting for its turn then is never sent. It
     * fails at once while RabbitMQ blocks publishing.
     */
    public CompletableFuture<Void> publish(String exchange, String routingKey, OrderEvent event, byte[] body) {
        String blocked = block.reason();
        if (blocked != null) {
            return CompletableFuture.failedFuture(blocked(blocked));
        }
        // RabbitMQ's real answer, however late; what the caller gets is cut at the output timeout, or told earlier
        // that the outcome is unknown when the channel ends before the confirm
        CompletableFuture<Void> confirmed = new CompletableFuture<>();
        CompletableFuture<Void> reply = new CompletableFuture<>();
        Publication publication = new Publication(exchange, routingKey, event, body, confirmed, reply, new AtomicBoolean(),
                tracer.currentSpan());
        if (!this.running || !this.waiting.offer(publication)) {
            return CompletableFuture.failedFuture(ProblemException.unavailable(
                    "RabbitMQ is not taking orders: " + QUEUE + " wait to be published already"));
        }
        confirmed.whenComplete((ok, failure) -> {
            if (failure == null) {
                reply.complete(null);
            }
            else {
                reply.completeExceptionally(failure);
            }
        });
        return reply.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).exceptionallyCompose(failure -> {
            if (!(ProblemException.unwrap(failure) instanceof TimeoutException)) {
                return CompletableFuture.failedFuture(ProblemException.unwrap(failure));
            }
            if (publication.taken().compareAndSet(false, true)) {
                // still waiting for its turn, and now it never gets one
                log.warn("{} not published within {}: not sent", event.orderId(), timeout);
                return CompletableFuture.failedFuture(ProblemException.unavailable("RabbitMQ did not take the order within "
                        + timeout.toMillis() + " ms: it was not sent"));
            }
            log.warn("no confirm for {} within {}: its outcome is unknown", event.orderId(), timeout);
            return CompletableFuture.failedFuture(unknown("RabbitMQ did not confirm the order within "
                    + timeout.toMillis() + " ms", publication));
        });
    }

    /** The answer to an order RabbitMQ may have: its outcome is RabbitMQ's confirm of it, however late. */
    private static OutcomeUnknownException unknown(String why, Publication publication) {
        OrderEvent event = publication.event();
        return new OutcomeUnknownException(why + ": it may be in the queue or not. Send it again with the same "
                + "Idempotency-Key to learn which (it is then placed once)", publication.answer().thenApply(ignored -> event));
    }

    private static ProblemException blocked(String reason) {
        return ProblemException.unavailable("RabbitMQ blocks publishing (" + reason + "): the order was not sent. "
                + "Send it again once RabbitMQ's alarm has cleared");
    }

    /** The publisher's thread: a channel per burst of orders, until the bean is destroyed and no order waits. */
    private void publishInTurn() {
        Publication carried = null;
        while (this.running || carried != null || !this.waiting.isEmpty()) {
            Publication first = carried != null ? carried : next();
            carried = null;
            if (first == null) {
                continue;
            }
            // the turn's first order until it is handed to the channel: what a failure to get one answers
            Publication[] unsent = {first};
            try {
                carried = this.rabbit.invoke(operations -> {
                    Publication next = first;
                    unsent[0] = null;
                    while (next != null) {
                        // the broker closes a channel on some errors (an exchange deleted meanwhile): the order
                        // that comes next goes on a fresh channel rather than fail on the closed one
                        if (!open(operations)) {
                            return next;
                        }
                        if (!send(next)) {
                            return null;
                        }
                        next = next();
                    }
                    return null;
                });
            }
            catch (AmqpException ex) {
                // no channel to be had: this order is answered 503, the next one tries again
                log.warn("no RabbitMQ channel for publishing: {}", ex.getMessage());
                if (unsent[0] != null) {
                    unsent[0].answer().completeExceptionally(
                            ProblemException.unavailable("RabbitMQ is not reachable: " + ex.getMessage()));
                }
            }
        }
    }

    /** Whether the channel of this thread's turn is still open (the template says it is closed by throwing). */
    private static boolean open(RabbitOperations operations) {
        try {
            return Boolean.TRUE.equals(operations.execute(Channel::isOpen));
        }
        catch (AmqpException ex) {
            return false;
        }
    }

    /**
     * The next order, waiting for one while the channel may be kept; once destroy() began, only what already
     * waits (so that every order taken is published or answered).
     */
    private @Nullable Publication next() {
        if (this.running) {
            try {
                return this.waiting.poll(IDLE_CHANNEL_MILLIS, TimeUnit.MILLISECONDS);
            }
            catch (InterruptedException ex) {
                // destroy(): go on with what still waits
            }
        }
        return this.waiting.poll();
    }

    /** Publishes one order on this thread's channel; false when the channel failed and its turn should end. */
    private boolean send(Publication publication) {
        if (!publication.taken().compareAndSet(false, true)) {
            // its deadline passed while it waited: answered 503, never sent
            return true;
        }
        String blocked = block.reason();
        if (blocked != null) {
            // blocked since it came: sent now, it would wait in the socket until the alarm ends
            publication.answer().completeExceptionally(blocked(blocked));
            return true;
        }
        OrderEvent event = publication.event();
        boolean[] sent = {true};
        // no timeout here: the caller's deadline answers the client, this waits for RabbitMQ's real answer
        confirmed(publication.exchange(), publication.routingKey(), event.orderId(), event.placedAt().toEpochMilli(),
                publication.body(), publication.trace(), false, () -> sent[0] = false)
                .whenComplete((confirmed, failure) -> {
                    if (failure == null) {
                        publication.answer().complete(null);
                    }
                    else if (ProblemException.unwrap(failure) instanceof ConfirmLost lost) {
                        log.warn("{}: {}; its outcome is unknown, it is published again", event.orderId(), lost.detail());
                        publication.reply().completeExceptionally(unknown(lost.detail(), publication));
                        republished.increment();
                        republishLater(publication, 1);
                    }
                    else {
                        publication.answer().completeExceptionally(ProblemException.unwrap(failure));
                    }
                });
        return sent[0];
    }

    /**
     * The order published again on the republisher's thread, at once for the first attempt, then after a pause that
     * doubles up to {@link #MAX_REPUBLISH_PAUSE}; its confirm completes the order's answer. Any other outcome of an
     * attempt (not sent, blocked, refused, returned, lost again) leads to the next one: an earlier copy may be in the
     * queue, so only a confirm settles it.
     */
    private void republishLater(Publication publication, int attempt) {
        long pauseMillis = attempt == 1 ? 0 : Math.min(MAX_REPUBLISH_PAUSE.toMillis(), 1000L << Math.min(attempt - 2, 16));
        try {
            this.republisher.schedule(() -> republish(publication, attempt), pauseMillis, TimeUnit.MILLISECONDS);
        }
        catch (RejectedExecutionException ex) {
            log.warn("{} is not published again: the service stops, its outcome stays unknown", publication.event().orderId());
        }
    }

    private void republish(Publication publication, int attempt) {
        OrderEvent event = publication.event();
        if (block.reason() != null) {
            republishLater(publication, attempt + 1);
            return;
        }
        confirmed(publication.exchange(), publication.routingKey(), event.orderId(), event.placedAt().toEpochMilli(),
                publication.body(), publication.trace(), false, () -> { })
                .whenComplete((confirmed, failure) -> {
                    if (failure == null) {
                        log.info("{}: published again and confirmed (attempt {})", event.orderId(), attempt);
                        publication.answer().complete(null);
                    }
                    else {
                        log.debug("{}: attempt {} to publish it again failed: {}", event.orderId(), attempt,
                                ProblemException.unwrap(failure).getMessage());
                        republishLater(publication, attempt + 1);
                    }
                });
    }

    /** Publishes one message on the calling thread and waits for its confirm; a 503 problem when it is not confirmed. */
    public void publishAndWait(String exchange, String routingKey, String messageId, long timestampMillis, byte[] body) {
        try {
            confirmed(exchange, routingKey, messageId, timestampMillis, body, null, true, () -> { }).join();
        }
        catch (CompletionException ex) {
            if (ex.getCause() instanceof ProblemException problem) {
                throw problem;
            }
            throw ex;
        }
    }

    /** The message published under {@code trace} (the order's span); its future is RabbitMQ's confirm, cut at the
     * output timeout when {@code bounded}. */
    private CompletableFuture<Void> confirmed(String exchange, String routingKey, String messageId, long timestampMillis,
            byte[] body, @Nullable Span trace, boolean bounded, Runnable notSent) {
        CorrelationData correlation = new CorrelationData(messageId);
        String target = exchange.isEmpty() ? "queue " + routingKey : "exchange " + exchange;
        try (Tracer.SpanInScope scope = tracer.withSpan(trace)) {
            rabbit.send(exchange, routingKey, message(messageId, timestampMillis, body), correlation);
        }
        catch (AmqpException ex) {
            log.warn("could not publish {} to {}: {}", messageId, target, ex.getMessage());
            notSent.run();
            return CompletableFuture.failedFuture(ProblemException.unavailable("RabbitMQ is not reachable: " + ex.getMessage()));
        }
        CompletableFuture<CorrelationData.Confirm> confirm = correlation.getFuture();
        return (bounded ? confirm.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS) : confirm).handle((answer, failure) -> {
            if (failure != null) {
                if (failure instanceof TimeoutException) {
                    log.warn("no confirm for {} from {} within {}", messageId, target, timeout);
                    throw ProblemException.unavailable("RabbitMQ did not confirm the order within " + timeout.toMillis() + " ms");
                }
                throw ProblemException.unavailable("RabbitMQ publish failed: " + failure);
            }
            ReturnedMessage returned = correlation.getReturned();
            if (returned != null) {
                throw ProblemException.unavailable("RabbitMQ could not route the order to " + target + ": "
                        + returned.getReplyText());
            }
            if (!answer.ack() && answer.reason() != null) {
                // the client's own nack for a channel that ended before the broker answered: RabbitMQ may have it
                throw new ConfirmLost("RabbitMQ's channel ended before it confirmed the order (" + answer.reason() + ")");
            }
            if (!answer.ack()) {
                throw ProblemException.unavailable("RabbitMQ refused the order (" + target + "): " + answer.reason());
            }
            return null;
        });
    }

    private static Message message(String messageId, long timestampMillis, byte[] body) {
        return MessageBuilder.withBody(body)
                .setContentType(MessageProperties.CONTENT_TYPE_JSON)
                .setContentEncoding("UTF-8")
                .setDeliveryMode(MessageDeliveryMode.PERSISTENT)
                .setMessageId(messageId)
                .setTimestamp(new Date(timestampMillis))
                .build();
    }

    @Override
    public void destroy() throws InterruptedException {
        this.running = false;
        this.publisher.interrupt();
        this.publisher.join(10_000);
        int unknown = this.republisher.shutdownNow().size();
        if (unknown > 0) {
            log.warn("{} orders whose confirm was lost were not published again: their outcome stays unknown", unknown);
        }
    }

    /**
     * An order waiting for its turn: RabbitMQ's real answer to it ({@code answer}) and what its client is told first
     * ({@code reply}); {@code taken} by the publisher's thread when it hands the order to the channel, or by its
     * deadline while it still waits (then it is never sent); {@code trace}, the order's span, if any.
     */
    private record Publication(String exchange, String routingKey, OrderEvent event, byte[] body,
            CompletableFuture<Void> answer, CompletableFuture<Void> reply, AtomicBoolean taken, @Nullable Span trace) {
    }
}
