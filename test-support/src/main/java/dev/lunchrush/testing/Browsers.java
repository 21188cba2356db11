package dev.lunchrush.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium, headless, driven by Debian's chromedriver. Nothing is downloaded: both paths are
 * given, so Selenium Manager never runs. Missing browser: the test fails and says what to install.
 */
public final class Browsers {

    private Browsers() {
    }

    public static ChromeDriver headlessChromium() {
        Path browser = firstExisting(System.getenv("LUNCHRUSH_TEST_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser");
        Path driver = firstExisting(System.getenv("LUNCHRUSH_TEST_CHROMEDRIVER"), "/usr/bin/chromedriver");
        if (browser == null || driver == null) {
            throw new IllegalStateException("Browser tests need Chromium and its driver: apt-get install chromium chromium-driver "
                    + "(or set LUNCHRUSH_TEST_CHROMIUM and LUNCHRUSH_TEST_CHROMEDRIVER)");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(browser.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,900");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driver.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    /**
     * The page as the browser shows it now, saved as {@code docs/images/<name>.png} of the project: the README's
     * pictures are made by the tests from a real run ({@code git diff --stat docs/images} after a run shows what changed).
     */
    public static void screenshot(ChromeDriver browser, String name) {
        Path shot = browser.getScreenshotAs(OutputType.FILE).toPath();
        try {
            Path images = Files.createDirectories(ServiceProcess.projectRoot().resolve("docs").resolve("images"));
            Files.copy(shot, images.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static Path firstExisting(String... candidates) {
        for (String candidate : candidates) {
            if (candidate != null && !candidate.isBlank() && Files.isExecutable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        return null;
    }
}
