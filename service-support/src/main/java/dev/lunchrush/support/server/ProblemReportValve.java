package dev.lunchrush.support.server;

import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.support.problems.ProblemType;

/**
 * Tomcat's error report as a problem document: what Tomcat refuses itself, before any filter or servlet (an encoded
 * {@code /} in the path, a request line or header it cannot parse), and any error no servlet wrote a body for, is
 * answered {@code application/problem+json}, like every other error, instead of Tomcat's HTML page: a 400 refused
 * before any servlet is {@code rejected-request}, any other the {@code type} of its status ({@link ProblemType#forStatus}). It takes the place of the host's {@link ErrorReportValve}.
 */
public class ProblemReportValve extends ErrorReportValve {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        // a 400 before any servlet was chosen: Tomcat refused the request line itself (an encoded '/' in the path …)
        ProblemType type = status == 400 && request.getWrapper() == null ? ProblemType.REJECTED_REQUEST
                : ProblemType.forStatus(status).orElse(status >= 500 ? ProblemType.INTERNAL_ERROR : ProblemType.INVALID_INPUT);
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", type.uri().toString());
        problem.put("title", type.title());
        problem.put("status", status);
        String message = response.getMessage();
        problem.put("detail", message == null || message.isBlank() ? "the server refused the request" : message);
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(JSON.writeValueAsString(problem));
                response.finishResponse();
            }
        }
        catch (IOException | IllegalStateException ex) {
            // the client is gone, or the answer was under way: nothing more to say
        }
    }
}
