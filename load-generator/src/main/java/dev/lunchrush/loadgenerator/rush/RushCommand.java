package dev.lunchrush.loadgenerator.rush;

import picocli.CommandLine.Command;

@Command(name = "rush", mixinStandardHelpOptions = true)
public class RushCommand implements Runnable {
    @Override
    public void run() {
    }
}
