package dev.lunchrush.orderservice.notifications;

/**
 * Where an SMS leaves for the customer's phone. The task's id goes along as the gateway's idempotency key: a task
 * sent twice (a worker that sent it and could not record it done, then a redelivery) is texted once.
 */
interface SmsGateway {

    /** Hands the SMS to the gateway; throws when the gateway did not take it. */
    void send(SmsTask task);
}
