package io.catalogviews.api.routing;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The answer of another instance to a forwarded request. */
public record ForwardedResponse(int status, Map<String, List<String>> headers, byte[] body) {

    public Optional<String> header(String name) {
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) {
                return Optional.of(e.getValue().get(0));
            }
        }
        return Optional.empty();
    }
}
