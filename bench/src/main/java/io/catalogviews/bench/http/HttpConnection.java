package io.catalogviews.bench.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One keep-alive HTTP/1.1 connection on a plain socket, used by one load thread: the lightest client the JDK
 * allows (no executor, no futures), so that the client takes as little of the shared 2 cores as it can. It reads
 * {@code Content-Length} and chunked bodies, reconnects when the server closes, and is not thread-safe.
 */
public final class HttpConnection implements Closeable {

    /** One answer: status, body and the headers the harness reads. */
    public record Response(int status, byte[] body) {
    }

    private final String host;
    private final int port;
    private final int timeoutMillis;
    private final byte[] hostHeader;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private final byte[] line = new byte[8192];

    public HttpConnection(String host, int port, int timeoutMillis) {
        this.host = host;
        this.port = port;
        this.timeoutMillis = timeoutMillis;
        this.hostHeader = ("Host: " + host + ":" + port + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** Connects to the host and port of an {@code http://host:port} URL. */
    public static HttpConnection to(String baseUrl, int timeoutMillis) {
        java.net.URI uri = java.net.URI.create(baseUrl);
        return new HttpConnection(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort(), timeoutMillis);
    }

    /** The request line and headers of a GET, prepared once per request so that the loop only writes bytes. */
    public static byte[] get(String target) {
        return ("GET " + target + " HTTP/1.1\r\nAccept: application/json\r\n").getBytes(StandardCharsets.UTF_8);
    }

    /** The request line and headers of a JSON POST with {@code body}. */
    public static byte[] postJson(String target, byte[] body) {
        return ("POST " + target + " HTTP/1.1\r\nAccept: application/json\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Sends one request ({@code head} from {@link #get} or {@link #postJson}, then {@code body} or null) and reads
     * its answer. Retries once on a fresh connection when a kept-alive connection turns out closed.
     */
    public Response exchange(byte[] head, byte[] body) throws IOException {
        boolean fresh = socket == null;
        try {
            return exchangeOnce(head, body);
        } catch (EOFException | java.net.SocketException e) {
            close();
            if (fresh) {
                throw e;
            }
            return exchangeOnce(head, body);
        }
    }

    private Response exchangeOnce(byte[] head, byte[] body) throws IOException {
        if (socket == null) {
            connect();
        }
        out.write(head);
        out.write(hostHeader);
        out.write('\r');
        out.write('\n');
        if (body != null) {
            out.write(body);
        }
        out.flush();
        int n = readLine();
        if (n < 12) {
            throw new IOException("bad status line: " + new String(line, 0, Math.max(0, n), StandardCharsets.ISO_8859_1));
        }
        int status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
        long contentLength = -1;
        boolean chunked = false;
        boolean close = false;
        while ((n = readLine()) > 0) {
            if (startsWithIgnoreCase(n, "content-length:")) {
                contentLength = Long.parseLong(value(n, 15));
            } else if (startsWithIgnoreCase(n, "transfer-encoding:")) {
                chunked = value(n, 18).toLowerCase(java.util.Locale.ROOT).contains("chunked");
            } else if (startsWithIgnoreCase(n, "connection:")) {
                close = value(n, 11).equalsIgnoreCase("close");
            }
        }
        byte[] responseBody;
        if (chunked) {
            responseBody = readChunked();
        } else if (contentLength >= 0) {
            responseBody = in.readNBytes((int) contentLength);
            if (responseBody.length != contentLength) {
                throw new EOFException("body cut short");
            }
        } else if (status == 204 || status == 304) {
            responseBody = new byte[0];
        } else {
            responseBody = in.readAllBytes();
            close = true;
        }
        if (close) {
            close();
        }
        return new Response(status, responseBody);
    }

    private void connect() throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.setSoTimeout(timeoutMillis);
        s.connect(new InetSocketAddress(host, port), timeoutMillis);
        socket = s;
        in = new BufferedInputStream(s.getInputStream(), 65536);
        out = new java.io.BufferedOutputStream(s.getOutputStream(), 16384);
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(32768);
        while (true) {
            int n = readLine();
            if (n < 0) {
                throw new EOFException("chunked body cut short");
            }
            String sizeText = new String(line, 0, n, StandardCharsets.ISO_8859_1);
            int semicolon = sizeText.indexOf(';');
            int size = Integer.parseInt((semicolon < 0 ? sizeText : sizeText.substring(0, semicolon)).trim(), 16);
            if (size == 0) {
                while (readLine() > 0) {
                    // trailers
                }
                return body.toByteArray();
            }
            byte[] chunk = in.readNBytes(size);
            if (chunk.length != size) {
                throw new EOFException("chunk cut short");
            }
            body.write(chunk);
            readLine();
        }
    }

    /** Reads one CRLF-terminated line into {@link #line}; returns its length without CRLF. */
    private int readLine() throws IOException {
        int n = 0;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed by the server");
            }
            if (b == '\n') {
                return n > 0 && line[n - 1] == '\r' ? n - 1 : n;
            }
            if (n == line.length) {
                throw new IOException("header line too long");
            }
            line[n++] = (byte) b;
        }
    }

    private boolean startsWithIgnoreCase(int n, String prefix) {
        if (n < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (Character.toLowerCase((char) line[i]) != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private String value(int n, int from) {
        return new String(line, from, n - from, StandardCharsets.ISO_8859_1).trim();
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a connection we are done with
            }
            socket = null;
            in = null;
            out = null;
        }
    }

    @Override
    public String toString() {
        return "http://" + host + ":" + port;
    }
}
