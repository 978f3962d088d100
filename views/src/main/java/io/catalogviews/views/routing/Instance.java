package io.catalogviews.views.routing;

/**
 * One service instance as other instances reach it: the {@code host:port} of its advertised URL, which is
 * also its Kafka Streams {@code application.server}.
 */
public record Instance(String host, int port) {

    public Instance {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("instance host must not be blank");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("instance port out of range 1..65535: " + port);
        }
    }

    /** Parses {@code host:port}. */
    public static Instance parse(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IllegalArgumentException("not host:port: '" + hostPort + "'");
        }
        try {
            return new Instance(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not host:port: '" + hostPort + "'", e);
        }
    }

    public String hostPort() {
        return host + ":" + port;
    }

    @Override
    public String toString() {
        return hostPort();
    }
}
