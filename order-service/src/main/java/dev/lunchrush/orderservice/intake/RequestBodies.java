package dev.lunchrush.orderservice.intake;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;
import org.springframework.util.unit.DataSize;

import dev.lunchrush.orderservice.problems.FieldProblem;
import dev.lunchrush.orderservice.problems.ProblemException;

/**
 * Reads a request body with a limit. The limit is checked on the bytes actually read, so a chunked
 * body (no Content-Length) is cut off as surely as a declared one; nothing past the limit is kept.
 */
public final class RequestBodies {

    private RequestBodies() {
    }

    public static byte[] read(HttpServletRequest request, DataSize limit) {
        long max = limit.toBytes();
        long declared = request.getContentLengthLong();
        if (declared > max) {
            throw tooLarge(max);
        }
        try (InputStream in = request.getInputStream()) {
            if (declared >= 0) {
                // the common case: the container holds the body to its Content-Length, so one array of that
                // size is all it takes (no buffer to copy through, no copy at the end)
                byte[] body = new byte[(int) declared];
                int read = in.readNBytes(body, 0, body.length);
                return read == body.length ? body : Arrays.copyOf(body, read);
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream(1024);
            byte[] buffer = new byte[8192];
            int read;
            while ((read = in.read(buffer)) != -1) {
                if (body.size() + read > max) {
                    throw tooLarge(max);
                }
                body.write(buffer, 0, read);
            }
            return body.toByteArray();
        }
        catch (IOException ex) {
            throw new UncheckedIOException("could not read the request body", ex);
        }
    }

    private static ProblemException tooLarge(long max) {
        return new ProblemException(HttpStatus.CONTENT_TOO_LARGE, "Request body too large",
                "the body is larger than " + max + " bytes", List.of(new FieldProblem("", "at most " + max + " bytes")),
                Map.of("Connection", "close"));
    }
}
