package dev.lunchrush.support.server;

import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.ServletException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

/**
 * Tomcat: a request whose body the application did not read (a 401, a 404, a page that takes no body) has its
 * connection closed after the answer, and the answer says so ({@code Connection: close}), instead of Tomcat reading
 * and dropping the rest in a worker thread before the next request. A client that declares a body and sends nothing
 * would otherwise hold that thread until the connection timeout, and a thousand such clients would hold every
 * worker: nobody else would be answered.
 * <p>
 * An answer committed while its body was unread carries {@code Connection: close} already when the body was
 * declared ({@code server.tomcat.max-swallow-size} is 0: Tomcat then knows at the commit that it will not read the
 * rest); one not committed yet gets it here. An answer committed without it (a chunked body) is left to Tomcat, which
 * reads on as before: a client reusing the connection must not find it closed under an answer that promised it open.
 */
final class UnreadBodyValve extends ValveBase {

    UnreadBodyValve() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        try {
            getNext().invoke(request, response);
        }
        finally {
            if (!request.isAsync()) {
                AtomicBoolean fullyRead = new AtomicBoolean(true);
                request.getCoyoteRequest().action(ActionCode.REQUEST_BODY_FULLY_READ, fullyRead);
                if (!fullyRead.get()) {
                    if (!response.isCommitted()) {
                        response.setHeader("Connection", "close");
                    }
                    if (saysClose(response.getHeader("Connection"))) {
                        request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
                    }
                }
            }
        }
    }

    private static boolean saysClose(String connection) {
        return connection != null && connection.toLowerCase(Locale.ROOT).contains("close");
    }
}
