package io.catalogviews.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * A seeded generator of HTTP requests no client should send and any can, over every route of the service, public and
 * internal: odd bytes in paths and parameters ({@code %00}, {@code %FF}, invalid UTF-8, raw {@code |}, {@code {},
 * {@code "}, control bytes, long values), repeated, unknown and empty parameters, huge and malformed numbers, bad and
 * tampered cursors, odd bodies and content types, odd methods, and the internal headers
 * ({@code X-Catalog-Forwarded-By}, {@code -Deadline}, {@code -Replica-Read}) without a signature or with a forged one.
 * Mixed with valid requests, so that the odd parts also reach deep into the routes (forwarding, fan-out, cursors).
 */
final class HostileRequests {

    /** How the body travels. */
    enum Framing {
        /** {@code Content-Length} of the body. */
        LENGTH,
        /** Chunked, well-formed. */
        CHUNKED,
        /** Chunked, with a chunk size that is not hexadecimal. */
        BAD_CHUNK,
        /** A {@code Content-Length} longer than the body, then the client half-closes: the body ends early. */
        SHORT
    }

    /** One request: a label for reports and the bytes on the wire (computed for a port). */
    record HostileRequest(String label, String method, String target, String version, List<String[]> headers,
                          byte[] body, Framing framing) {

        HostileRequest(String label, String method, String target, List<String[]> headers, byte[] body) {
            this(label, method, target, "HTTP/1.1", headers, body, Framing.LENGTH);
        }

            /** Whether the client stops sending after the request (the server sees the end of its input). */
        boolean halfClose() {
            return framing == Framing.SHORT;
        }

        byte[] bytes(int port) {
            StringBuilder head = new StringBuilder();
            head.append(method).append(' ').append(target).append(version.isEmpty() ? "" : " " + version)
                    .append("\r\n");
            head.append("Host: localhost:").append(port).append("\r\n");
            for (String[] header : headers) {
                head.append(header[0]).append(": ").append(header[1]).append("\r\n");
            }
            byte[] framed = body;
            if (body != null) {
                switch (framing) {
                    case LENGTH -> head.append("Content-Length: ").append(body.length).append("\r\n");
                    case SHORT -> head.append("Content-Length: ").append(body.length + 100).append("\r\n");
                    case CHUNKED, BAD_CHUNK -> {
                        head.append("Transfer-Encoding: chunked\r\n");
                        framed = chunked(body, framing == Framing.BAD_CHUNK);
                    }
                }
            }
            head.append("Connection: close\r\n\r\n");
            byte[] headBytes = head.toString().getBytes(StandardCharsets.UTF_8);
            if (framed == null) {
                return headBytes;
            }
            byte[] all = new byte[headBytes.length + framed.length];
            System.arraycopy(headBytes, 0, all, 0, headBytes.length);
            System.arraycopy(framed, 0, all, headBytes.length, framed.length);
            return all;
        }

        private static byte[] chunked(byte[] body, boolean bad) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            int half = body.length / 2;
            for (byte[] part : List.of(java.util.Arrays.copyOfRange(body, 0, half),
                    java.util.Arrays.copyOfRange(body, half, body.length))) {
                if (part.length > 0) {
                    out.writeBytes((bad ? "Z" + Integer.toHexString(part.length) : Integer.toHexString(part.length))
                            .getBytes(StandardCharsets.US_ASCII));
                    out.writeBytes(new byte[] {'\r', '\n'});
                    out.writeBytes(part);
                    out.writeBytes(new byte[] {'\r', '\n'});
                }
            }
            out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            return out.toByteArray();
        }

        /** The request for a failure message: label, request line and headers, cut. */
        String describe() {
            String line = method + " " + target + " " + version + (framing == Framing.LENGTH ? "" : " " + framing);
            StringBuilder out = new StringBuilder(label).append(": ")
                    .append(line.length() > 300 ? line.substring(0, 300) + "…" : line);
            for (String[] header : headers) {
                String value = header[1].length() > 80 ? header[1].substring(0, 80) + "…" : header[1];
                out.append(" [").append(header[0]).append(": ").append(value).append(']');
            }
            if (body != null) {
                out.append(" body ").append(body.length).append(" bytes");
            }
            return out.toString();
        }
    }

    /** Odd values for any parameter or path segment, as they appear in the request target (raw or escaped). */
    private static final List<String> ODD = List.of("%00", "%FF", "%C3%28", "%ED%A0%80", "%F0%9F%98%80", "|", "a|b",
            "{", "}", "{x}", "^", "%22q%22", "\"", "%", "%G1", "%2", "a+b", "%2B", "é", "%C3%A9", "..", "%2E%2E",
            "%2F", "a/b", "\\", "%3Cscript%3E", "'", "`", ";", "%0D%0A", "%09", "%20", "", "%7B%7D", "~", ":", "@",
            "%25", "*", "[", "]", "%5B0%5D", "#frag", "?", "=", "&", "9".repeat(40), "-1", "0", "1e3", "0x10",
            "+5", "NaN", "Infinity", "true", "false", "TRUE", "null", "undefined", "-0", "00000000000000000001",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "1.5", " 1", "%201");
    private static final List<String> LISTING_PARAMS = List.of("category", "brand", "minPrice", "maxPrice", "inStock",
            "sort", "limit", "cursor", "fresh", "brandLimit");
    private static final List<String> INTERNAL_POSTS = List.of("/internal/v1/products/batch",
            "/internal/v1/listing/catalog-page", "/internal/v1/listing/catalog-facets",
            "/internal/v1/listing/categories");
    private static final List<String> OTHER_GETS = List.of("/internal/v1/state", "/v1/cluster", "/health/live",
            "/health/ready", "/metrics", "/openapi.json", "/", "/v1", "/v1/", "/v1/products/", "/v1/productsX",
            "/v1/products/batch", "/internal/v1/listing/catalog-page", "/V1/PRODUCTS", "//v1/products",
            "/v1/products/../categories", "/v1/./categories", "/%2e%2e/v1/categories", "/v1/categories/",
            "/v1/products/a/b", "/v1/products/%2F", "/favicon.ico");
    private static final List<String> METHODS = List.of("PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "FOO",
            "CONNECT", "get", "PROPFIND");
    private static final List<String> CONTENT_TYPES = List.of("application/json", "application/json; charset=utf-8",
            "APPLICATION/JSON", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
            "application/json; charset=latin1", "application/jsonx", ";", "", "application/vnd.catalog-views"
                    + ".listing-request", "*/*", "application/json\u00ff");

    private final SplittableRandom random;
    private final List<String> ids;
    private final List<String> categories;
    private final Supplier<List<String>> cursors;

    /**
     * @param ids        product ids that exist
     * @param categories categories that exist
     * @param cursors    cursors harvested from answers so far (valid ones, to tamper with)
     */
    HostileRequests(long seed, List<String> ids, List<String> categories, Supplier<List<String>> cursors) {
        this.random = new SplittableRandom(seed);
        this.ids = List.copyOf(ids);
        this.categories = List.copyOf(categories);
        this.cursors = cursors;
    }

    HostileRequest next() {
        int kind = random.nextInt(100);
        HostileRequest request;
        if (kind < 20) {
            request = productById();
        } else if (kind < 40) {
            request = listing("/v1/products");
        } else if (kind < 50) {
            request = listing("/v1/facets");
        } else if (kind < 55) {
            request = get("categories", "/v1/categories" + query(List.of("fresh"), 2));
        } else if (kind < 67) {
            request = post("batch", "/v1/products/batch" + (chance(5) ? query(List.of("fresh"), 2) : ""),
                    batchBody(), contentType());
        } else if (kind < 79) {
            String path = pick(INTERNAL_POSTS);
            request = post("internal " + path, path + (chance(10) ? query(LISTING_PARAMS, 2) : ""),
                    path.contains("batch") ? batchBody() : internalBody(), contentType());
        } else if (kind < 85) {
            String path = pick(OTHER_GETS);
            request = get("other " + path, path + (chance(4) ? query(List.of("fresh", "x"), 2) : ""));
        } else if (kind < 93) {
            request = oddMethod();
        } else {
            request = oddRequestLine();
        }
        return chance(3) ? withOddHeaders(request) : request;
    }

    private HostileRequest productById() {
        String id = chance(2) ? pick(ids) : chance(2) ? pick(ODD) : oddId();
        String query = query(List.of("minVersion", "waitMs", "fresh", "x"), 3);
        return get("product", "/v1/products/" + id + query);
    }

    private HostileRequest listing(String path) {
        StringBuilder query = new StringBuilder();
        int n = random.nextInt(0, 7);
        for (int i = 0; i < n; i++) {
            String name = chance(10) ? pick(ODD) : pick(LISTING_PARAMS);
            query.append(query.isEmpty() ? "?" : "&").append(name);
            if (!chance(15)) {
                query.append('=').append(listingValue(name));
            }
        }
        return get("listing " + path, path + query);
    }

    private String listingValue(String name) {
        if (chance(3)) {
            return pick(ODD);
        }
        return switch (name) {
            case "category" -> chance(2) ? pick(categories) : pick(List.of("UPPER", "a".repeat(65), "-x", "x_y"));
            case "brand" -> pick(List.of("acme", "zeta", "a|b", "a%7Cb", "%7Bx%7D", "%22q%22", "x%5Ey", "b,c", "%C3%A9",
                    "x".repeat(129), "x".repeat(128)));
            case "minPrice", "maxPrice" -> pick(List.of("0", "100", "5000", "99999999999999999999", "-5", "1.0"));
            case "inStock" -> pick(List.of("true", "false", "yes", "1"));
            case "sort" -> pick(List.of("price", "-price", "-updatedAt", "-rating", "rating", "updatedAt", "id"));
            case "limit" -> pick(List.of("1", "20", "200", "201", "0", "99999999999"));
            case "brandLimit" -> pick(List.of("1", "1000", "1001", "0"));
            case "fresh" -> pick(List.of("true", "false", "maybe"));
            case "cursor" -> cursor();
            default -> pick(ODD);
        };
    }

    /** A harvested cursor, tampered with or not, or garbage. */
    private String cursor() {
        List<String> known = cursors.get();
        if (known.isEmpty() || chance(4)) {
            return pick(List.of("abc", "A".repeat(600), "====", "AAAA", Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(bytes(random.nextInt(1, 80))), "%00", "-_-_"));
        }
        String cursor = known.get(random.nextInt(known.size()));
        return switch (random.nextInt(5)) {
            case 0 -> cursor;
            case 1 -> cursor.substring(0, random.nextInt(1, cursor.length()));
            case 2 -> cursor + "A";
            case 3 -> {
                char[] chars = cursor.toCharArray();
                int i = random.nextInt(chars.length);
                chars[i] = chars[i] == 'A' ? 'B' : 'A';
                yield new String(chars);
            }
            default -> cursor + "=";
        };
    }

    private String query(List<String> names, int max) {
        StringBuilder query = new StringBuilder();
        int n = random.nextInt(0, max + 1);
        for (int i = 0; i < n; i++) {
            String name = chance(8) ? pick(ODD) : pick(names);
            String value = switch (name) {
                case "minVersion" -> chance(2) ? pick(List.of("1", "2", "3")) : pick(ODD);
                case "waitMs" -> chance(2) ? pick(List.of("0", "10", "50")) : pick(List.of("10001", "-1",
                        "99999999999999999999", "1e2", "x"));
                case "fresh" -> pick(List.of("true", "false", "maybe", ""));
                default -> pick(ODD);
            };
            query.append(query.isEmpty() ? "?" : "&").append(name).append('=').append(value);
        }
        return query.toString();
    }

    private String oddId() {
        return switch (random.nextInt(6)) {
            case 0 -> "x".repeat(129);
            case 1 -> "p-" + "9".repeat(random.nextInt(1, 3000));
            case 2 -> "a%2Fb";
            case 3 -> "%E2%80%8Bzero-width";
            case 4 -> "id%3Awith%3Acolons";
            default -> pick(ids) + pick(ODD);
        };
    }

    private byte[] batchBody() {
        String body = switch (random.nextInt(16)) {
            case 0 -> "";
            case 1 -> "[]";
            case 2 -> "{}";
            case 3 -> "{\"ids\":[]}";
            case 4 -> "{\"ids\":[1,2]}";
            case 5 -> "{\"ids\":[\"a|b\",\"{x}\"]}";
            case 6 -> "{\"ids\":[" + "\"p\",".repeat(1000) + "\"p\"]}";
            case 7 -> "{\"ids\":[\"" + "x".repeat(5000) + "\"]}";
            case 8 -> "[".repeat(5000);
            case 9 -> "{\"ids\":[\"" + pick(ids) + "\"],\"ids\":[\"x\"]}";
            case 10 -> "{\"other\":1}";
            case 11 -> "null";
            case 12 -> "{\"ids\":[\"" + pick(ids) + "\"]} trailing";
            case 13 -> "{\"ids\":\"" + pick(ids) + "\"}";
            default -> validBatch();
        };
        if (chance(20)) {
            return bytes(random.nextInt(0, 300));
        }
        return body.getBytes(StandardCharsets.UTF_8);
    }

    private String validBatch() {
        StringBuilder body = new StringBuilder("{\"ids\":[");
        int n = random.nextInt(1, 30);
        for (int i = 0; i < n; i++) {
            body.append(i == 0 ? "" : ",").append('"').append(chance(5) ? "missing-" + i : pick(ids)).append('"');
        }
        return body.append("]}").toString();
    }

    /** A listing scatter body: the right shape with wrong numbers, a truncated one, or random bytes. */
    private byte[] internalBody() {
        int kind = random.nextInt(1, 5);
        switch (random.nextInt(4)) {
            case 0 -> {
                return bytes(random.nextInt(0, 200));
            }
            case 1 -> {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(64);
                b.put((byte) 1).put((byte) kind).putInt(random.nextInt(-2, 40));
                for (int i = 0; i < 4; i++) {
                    b.putInt(random.nextInt(-1, 20));
                }
                return java.util.Arrays.copyOf(b.array(), random.nextInt(2, 64));
            }
            case 2 -> {
                // Partition 0, then a filter with a huge brand count or text length.
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(32);
                b.put((byte) 1).put((byte) kind).putInt(1).putInt(0).put((byte) 1)
                        .putInt(random.nextBoolean() ? Integer.MAX_VALUE : -1);
                return java.util.Arrays.copyOf(b.array(), b.position());
            }
            default -> {
                // Every partition of a categories request: well-formed; may be answered 200 or refused 421/503.
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(64);
                b.put((byte) 1).put((byte) 3).putInt(2).putInt(0).putInt(1);
                return java.util.Arrays.copyOf(b.array(), b.position());
            }
        }
    }

    private HostileRequest oddMethod() {
        String method = pick(METHODS);
        String path = pick(List.of("/v1/products/" + pick(ids), "/v1/products", "/v1/products/batch", "/v1/facets",
                "/v1/categories", "/internal/v1/products/batch", "/v1/cluster", "/metrics", "/nope"));
        byte[] body = chance(2) ? "{\"ids\":[\"x\"]}".getBytes(StandardCharsets.UTF_8) : null;
        return new HostileRequest("method " + method, method, path, headers(body), body);
    }

    private HostileRequest oddRequestLine() {
        if (chance(3)) {
            String version = pick(List.of("HTTP/1.0", "", "HTTP/1.7", "HTTP/2.0", "HTTP/9.9", "HTTPS/1.1", "http/1.1"));
            return new HostileRequest("version " + version, "GET", "/v1/categories", version, List.of(), null,
                    Framing.LENGTH);
        }
        String target = switch (random.nextInt(8)) {
            case 0 -> "/v1/products?category=x y";
            case 1 -> "/v1/products/\u0001";
            case 2 -> "http://elsewhere.example/v1/categories";
            case 3 -> "*";
            case 4 -> "/v1/products?" + "brand=x&".repeat(2000);
            case 5 -> "/v1/products/" + "é".repeat(3000);
            case 6 -> "v1/products";
            default -> "/v1/products?category=phones&brand=\"quoted\"&brand=<a>";
        };
        return get("request line", target);
    }

    private HostileRequest withOddHeaders(HostileRequest request) {
        List<String[]> headers = new ArrayList<>(request.headers());
        int n = random.nextInt(1, 4);
        for (int i = 0; i < n; i++) {
            headers.add(switch (random.nextInt(13)) {
                case 12 -> new String[] {"Expect", pick(List.of("100-continue", "weird"))};
                case 0 -> new String[] {"X-Catalog-Forwarded-By", pick(List.of("localhost:1", "evil.example:80", "",
                        "x".repeat(500)))};
                case 1 -> new String[] {"X-Catalog-Deadline", pick(List.of("0", "1", "-5", "x",
                        Long.toString(System.currentTimeMillis() + 60_000), "99999999999999999999"))};
                case 2 -> new String[] {"X-Catalog-Replica-Read", pick(List.of("true", "false", "1", ""))};
                case 3 -> new String[] {"X-Catalog-Signature", forgedSignature()};
                case 4 -> new String[] {"If-None-Match", pick(List.of("\"1\"", "*", "W/\"2\"", "\"x\"", "garbage",
                        "\"1\", ".repeat(200), "\"99999999999999999999\""))};
                case 5 -> new String[] {"Content-Type", contentType()};
                case 6 -> new String[] {"Accept", pick(List.of("text/html", "*/*", "application/xml", "ü"))};
                case 7 -> new String[] {"X-Forwarded-For", "10.0.0.1, evil"};
                case 8 -> new String[] {"X-Long", "v".repeat(random.nextBoolean() ? 2_000 : 20_000)};
                case 9 -> new String[] {"X-Catalog-Whatever", "1"};
                case 10 -> new String[] {"Authorization", "Bearer " + "t".repeat(20)};
                default -> new String[] {"Content-Encoding", pick(List.of("gzip", "br", "identity"))};
            });
        }
        return new HostileRequest(request.label() + " +headers", request.method(), request.target(),
                request.version(), headers, request.body(), request.framing());
    }

    /** Well-formed, current, signed with nobody's key. */
    private String forgedSignature() {
        if (chance(3)) {
            return pick(List.of("garbage", "", "1:abc", System.currentTimeMillis() + ":"));
        }
        return System.currentTimeMillis() + ":" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(32));
    }

    private HostileRequest get(String label, String target) {
        return new HostileRequest(label, "GET", target, headers(null), null);
    }

    private HostileRequest post(String label, String target, byte[] body, String contentType) {
        List<String[]> headers = new ArrayList<>();
        if (contentType != null) {
            headers.add(new String[] {"Content-Type", contentType});
        }
        Framing framing = chance(4) ? pick(List.of(Framing.CHUNKED, Framing.BAD_CHUNK, Framing.SHORT))
                : Framing.LENGTH;
        return new HostileRequest(label, "POST", target, "HTTP/1.1", headers, body, framing);
    }

    private List<String[]> headers(byte[] body) {
        String contentType = body == null ? null : contentType();
        return contentType == null ? List.of() : List.<String[]>of(new String[] {"Content-Type", contentType});
    }

    private String contentType() {
        return chance(8) ? null : chance(2) ? "application/json" : pick(CONTENT_TYPES);
    }

    private byte[] bytes(int n) {
        byte[] out = new byte[n];
        random.nextBytes(out);
        return out;
    }

    private boolean chance(int oneIn) {
        return random.nextInt(oneIn) == 0;
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
