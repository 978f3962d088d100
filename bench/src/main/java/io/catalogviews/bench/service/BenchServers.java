package io.catalogviews.bench.service;

import io.catalogviews.bench.peer.PostgresHttpServer;
import io.javalin.Javalin;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * Main class of the HTTP servers the harness starts as child JVMs beside the service, with the same JVM options:
 * <ul>
 *   <li>{@code ceiling <port>}: a bare Javalin server answering {@code GET|POST /ceiling/{bytes}} with constant
 *       bytes of that size ({@code application/json}), the HTTP ceiling of this machine for a payload;</li>
 *   <li>{@code postgres <port> <jdbc-url> <pool>}: {@link PostgresHttpServer}.</li>
 * </ul>
 * It runs until SIGTERM.
 */
public final class BenchServers {

    private BenchServers() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[1]);
        Javalin app = switch (args[0]) {
            case "ceiling" -> ceiling(port);
            case "postgres" -> PostgresHttpServer.start(port, args[2], Integer.parseInt(args[3]));
            default -> throw new IllegalArgumentException("unknown server " + args[0]);
        };
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            app.stop();
            stopped.countDown();
        }));
        System.out.println(args[0] + " server listening on " + port);
        stopped.await();
    }

    static Javalin ceiling(int port) {
        ConcurrentHashMap<Integer, byte[]> bodies = new ConcurrentHashMap<>();
        io.javalin.http.Handler constant = ctx -> {
            int size = Integer.parseInt(ctx.pathParam("bytes"));
            byte[] body = bodies.computeIfAbsent(size, BenchServers::constantJson);
            ctx.status(200).contentType("application/json").result(body);
        };
        return Javalin.create(cfg -> {
            cfg.jetty.port = port;
            cfg.startup.showJavalinBanner = false;
            cfg.routes.get("/health/ready", ctx -> ctx.result("{}"));
            cfg.routes.get("/ceiling/{bytes}", constant);
            cfg.routes.post("/ceiling/{bytes}", constant);
        }).start();
    }

    /** A JSON object of exactly {@code size} bytes (at least 10). */
    static byte[] constantJson(int size) {
        int n = Math.max(10, size);
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 'x');
        byte[] head = "{\"pad\":\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        System.arraycopy(head, 0, b, 0, head.length);
        b[n - 2] = '"';
        b[n - 1] = '}';
        return b;
    }
}
