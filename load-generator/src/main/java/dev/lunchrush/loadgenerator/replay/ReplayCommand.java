package dev.lunchrush.loadgenerator.replay;

import picocli.CommandLine.Command;

@Command(name = "replay", mixinStandardHelpOptions = true)
public class ReplayCommand implements Runnable {
    @Override
    public void run() {
    }
}
