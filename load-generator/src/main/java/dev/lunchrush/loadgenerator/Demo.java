package dev.lunchrush.loadgenerator;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./demo}: the command-line entry point of Lunch Rush. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Lunch Rush: logs, queues and back-pressure on real RabbitMQ and real Kafka.")
public class Demo {

    public static void main(String[] args) {
        System.exit(new CommandLine(new Demo()).execute(args));
    }
}
