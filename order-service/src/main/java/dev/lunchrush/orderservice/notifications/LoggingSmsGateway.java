package dev.lunchrush.orderservice.notifications;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/** The lesson has no SMS provider: sending is a debug log line. A real gateway takes the task id as its idempotency key. */
@Component
class LoggingSmsGateway implements SmsGateway {

    private static final Logger log = LoggerFactory.getLogger(LoggingSmsGateway.class);

    @Override
    public void send(SmsTask task) {
        log.debug("SMS {} to {} for order {}: {}", task.taskId(), task.customerId(), task.orderId(), task.text());
    }
}
