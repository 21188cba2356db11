package dev.lunchrush.orderservice.publishing;


import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.problems.ProblemType;

/** A confirm the client made up for a channel that ended first: the broker may have the message or not. */
final class ConfirmLost extends ProblemException {

    ConfirmLost(String detail) {
        super(ProblemType.NOT_ACCEPTED, detail);
    }
}
