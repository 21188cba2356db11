package dev.lunchrush.support.server;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.ServletException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

/**
 * Tomcat: a request whose body the application did not read (a 401, a 404, a page that takes no body) has its
 * connection closed after the answer, instead of Tomcat reading and dropping the rest in a worker thread before the next
 * request. A client that declares a body and sends nothing would otherwise hold that thread until the connection
 * timeout, and a thousand such clients would hold every worker: nobody else would be answered.
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
                    request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
                }
            }
        }
    }
}
