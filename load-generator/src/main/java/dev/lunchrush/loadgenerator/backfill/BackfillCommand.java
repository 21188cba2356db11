package dev.lunchrush.loadgenerator.backfill;

import picocli.CommandLine.Command;

@Command(name = "backfill", mixinStandardHelpOptions = true)
public class BackfillCommand implements Runnable {
    @Override
    public void run() {
    }
}
