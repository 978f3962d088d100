package io.catalogviews.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 exchange over a fresh socket, the request written byte for byte as given: for requests that ordinary
 * clients refuse to send (raw {@code |} or {@code "} in the target, control bytes, invalid UTF-8, odd methods and
 * headers). The request asks {@code Connection: close}, so the response ends where the stream does.
 */
final class RawHttp {

    /** Largest response read; more is a test failure (no route answers that much to these requests). */
    private static final int MAX_RESPONSE_BYTES = 4 << 20;

    /** A response: status, headers by lower-case name, body (de-chunked). */
    record Response(int status, Map<String, List<String>> headers, byte[] body) {

        String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private RawHttp() {
    }

    /**
     * Sends {@code request} (the request line, headers and body, complete) to {@code port} on localhost.
     *
     * @throws IOException when the connection fails, or nothing parseable comes back within {@code timeout}
     */
    static Response exchange(int port, byte[] request, Duration timeout) throws IOException {
        return exchange(port, request, false, timeout);
    }

    /** @param halfClose whether to close the sending side after the request (the server sees its input end) */
    static Response exchange(int port, byte[] request, boolean halfClose, Duration timeout) throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout((int) timeout.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            if (halfClose) {
                socket.shutdownOutput();
            }
            return parse(readAll(socket.getInputStream()));
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) != -1; ) {
                all.write(buffer, 0, n);
                if (all.size() > MAX_RESPONSE_BYTES) {
                    throw new IOException("response longer than " + MAX_RESPONSE_BYTES + " bytes");
                }
            }
        } catch (SocketTimeoutException e) {
            throw new IOException("no complete response in time; got " + all.size() + " bytes", e);
        } catch (IOException e) {
            // A server may reset the connection after answering a malformed request: keep what came.
            if (all.size() == 0) {
                throw e;
            }
        }
        return all.toByteArray();
    }

    private static Response parse(byte[] raw) throws IOException {
        Response response = parseOne(raw);
        // Interim answers (100 Continue) come before the final one.
        while (response.status() >= 100 && response.status() < 200 && response.body().length > 0) {
            response = parseOne(response.body());
        }
        return response;
    }

    private static Response parseOne(byte[] raw) throws IOException {
        int end = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0);
        if (end < 0) {
            throw new IOException("no response head in " + raw.length + " bytes: "
                    + new String(raw, 0, Math.min(raw.length, 200), StandardCharsets.ISO_8859_1));
        }
        String[] lines = new String(raw, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        String[] statusLine = lines[0].split(" ", 3);
        if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP/1.x status line: " + lines[0]);
        }
        int status = Integer.parseInt(statusLine[1]);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        k -> new ArrayList<>()).add(lines[i].substring(colon + 1).trim());
            }
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        List<String> encoding = headers.get("transfer-encoding");
        if (encoding != null && encoding.get(0).equalsIgnoreCase("chunked")) {
            body = dechunk(body);
        }
        return new Response(status, headers, body);
    }

    private static byte[] dechunk(byte[] chunked) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (true) {
            int lineEnd = indexOf(chunked, new byte[] {'\r', '\n'}, at);
            if (lineEnd < 0) {
                throw new IOException("truncated chunked body");
            }
            String sizeText = new String(chunked, at, lineEnd - at, StandardCharsets.US_ASCII).split(";")[0].trim();
            int size = Integer.parseInt(sizeText, 16);
            if (size == 0) {
                return out.toByteArray();
            }
            if (lineEnd + 2 + size > chunked.length) {
                throw new IOException("truncated chunk");
            }
            out.write(chunked, lineEnd + 2, size);
            at = lineEnd + 2 + size + 2;
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = from; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
