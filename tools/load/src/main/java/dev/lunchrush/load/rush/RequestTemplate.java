package dev.lunchrush.load.rush;

import java.net.URI;
import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import org.jspecify.annotations.Nullable;

/**
 * What every request to one URI shares, built once: the path, the {@code Host} header and the constant headers; a
 * request adds its {@code Idempotency-Key} and length and wraps its body ({@link #request}). Also the HTTP codec of
 * a connection to it ({@link #codec}).
 */
final class RequestTemplate {

    private static final AsciiString IDEMPOTENCY_KEY = AsciiString.cached("Idempotency-Key");
    private static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");
    private static final AsciiString USER_AGENT = AsciiString.cached("lunch-rush-load-generator");
    private static final AsciiString ANY = AsciiString.cached("*/*");
    private static final HttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory().withValidation(false);

    private final String path;
    private final AsciiString host;
    private final HttpDecoderConfig decoding =
            new HttpDecoderConfig().setHeadersFactory(HEADERS).setTrailersFactory(HEADERS);
    private final HttpHeaders getHeaders;
    private final HttpHeaders postHeaders;

    RequestTemplate(URI uri, int port) {
        this.host = AsciiString.cached(port == 80 ? uri.getHost() : uri.getHost() + ":" + port);
        String rawPath = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        this.path = uri.getRawQuery() == null ? rawPath : rawPath + "?" + uri.getRawQuery();
        this.getHeaders = constantHeaders();
        this.postHeaders = constantHeaders().add(HttpHeaderNames.CONTENT_TYPE, APPLICATION_JSON);
    }

    /** A connection's codec: requests out, answers in (their headers unvalidated: the driver reads two of them). */
    HttpClientCodec codec() {
        return new HttpClientCodec(decoding, false, false);
    }

    /**
     * The request of an exchange: a GET without a body, or a POST of its body with its key. On the event loop each
     * request is encoded as it is written, so one set of headers serves them all, its key and length set anew each
     * time ({@code shared}); elsewhere (priming) a set of its own. The body is copied into a buffer of the
     * connection's allocator, which the socket writes from as it is, after the encoded headers.
     */
    DefaultFullHttpRequest request(DriverHttp.Exchange exchange, boolean shared, ByteBufAllocator allocator) {
        byte[] body = exchange.body();
        if (body == null) {
            return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path, Unpooled.EMPTY_BUFFER,
                    shared ? getHeaders : constantHeaders(), EmptyHttpHeaders.INSTANCE);
        }
        HttpHeaders headers = shared ? postHeaders
                : constantHeaders().add(HttpHeaderNames.CONTENT_TYPE, APPLICATION_JSON);
        headers.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length).set(IDEMPOTENCY_KEY, exchange.idempotencyKey());
        return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, path,
                allocator.directBuffer(body.length).writeBytes(body), headers, EmptyHttpHeaders.INSTANCE);
    }

    /**
     * Runs the codec once off the network, a request out and an answer in, so that loading its classes is not on the
     * first order's clock.
     */
    void prime() {
        EmbeddedChannel channel = new EmbeddedChannel(codec());
        try {
            DriverHttp.Exchange probe = new DriverHttp.Exchange() {
                @Override
                byte[] body() {
                    return new byte[] {'{', '}'};
                }

                @Override
                String idempotencyKey() {
                    return "prime";
                }

                @Override
                void answered(int status, @Nullable String retryAfter) {
                }

                @Override
                void failed(DriverHttp.Failure kind, Throwable cause) {
                }
            };
            channel.writeOutbound(request(probe, false, channel.alloc()));
            channel.writeInbound(Unpooled.copiedBuffer(
                    "HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}",
                    StandardCharsets.US_ASCII));
        }
        finally {
            channel.finishAndReleaseAll();
        }
    }

    private HttpHeaders constantHeaders() {
        return HEADERS.newHeaders()
                .add(HttpHeaderNames.HOST, host)
                .add(HttpHeaderNames.USER_AGENT, USER_AGENT)
                .add(HttpHeaderNames.ACCEPT, ANY);
    }
}
