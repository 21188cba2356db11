package dev.lunchrush.orderservice.publishing;

import org.springframework.http.HttpStatus;

import dev.lunchrush.support.problems.ProblemException;

/** A confirm the client made up for a channel that ended first: the broker may have the message or not. */
final class ConfirmLost extends ProblemException {

    ConfirmLost(String detail) {
        super(HttpStatus.SERVICE_UNAVAILABLE, "Order not accepted", detail);
    }
}
