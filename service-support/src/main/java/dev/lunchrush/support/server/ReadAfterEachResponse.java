package dev.lunchrush.support.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * A workaround, to be deleted with Reactor Netty after 1.3.8: asks the connection for its next bytes once a
 * response's last part is written. Reactor Netty reads a kept-alive connection only when asked, and in 1.3.6 (also
 * 1.3.7 and 1.3.8) a request that arrived while the one before was still finishing, once answered, can leave nobody
 * asking: the connection then hangs for ever, and no idle timeout reaps it (reactor-netty issue 4361, "HTTP/1.1
 * keep-alive connection stops reading after a queued request completes synchronously"). Asking once more costs
 * nothing when a read is pending already. It reads nothing itself and parses nothing; the order service's
 * {@code OrderIntakeConnectionTests.aConnectionKeepsBeingReadAfterPipelinedRequestsAnsweredAtOnce} fails without it.
 */
final class ReadAfterEachResponse extends ChannelOutboundHandlerAdapter {

    static final String NAME = "lunchrush.readAfterEachResponse";

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof LastHttpContent
                && !(msg instanceof HttpResponse response && response.status().codeClass() == HttpStatusClass.INFORMATIONAL)) {
            ChannelPromise written = promise.unvoid();
            written.addListener(future -> {
                if (ctx.channel().isActive()) {
                    ctx.read();
                }
            });
            ctx.write(msg, written);
            return;
        }
        ctx.write(msg, promise);
    }
}
