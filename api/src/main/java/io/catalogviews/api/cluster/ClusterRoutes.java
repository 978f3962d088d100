package io.catalogviews.api.cluster;

import io.catalogviews.api.http.QueryParams;
import io.catalogviews.api.http.Responses;
import io.catalogviews.api.routing.Forwarder;
import io.catalogviews.api.routing.PeerRequest;
import io.catalogviews.views.json.JsonBytes;
import io.catalogviews.views.routing.ClusterState;
import io.catalogviews.views.routing.ClusterView;
import io.catalogviews.views.routing.Instance;
import io.javalin.http.Context;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /v1/cluster}: instances, their active and standby partitions per store, this instance's store lags
 * and whether it has caught up. The state of the other instances is asked of them (in parallel, briefly); an
 * instance that does not answer in time is reported as {@code UNREACHABLE}.
 */
public final class ClusterRoutes {

    public static final String CLUSTER_PATH = "/v1/cluster";
    public static final String INTERNAL_STATE_PATH = "/internal/v1/state";
    private static final Duration STATE_TIMEOUT = Duration.ofSeconds(1);
    private static final Pattern STATE = Pattern.compile("\"state\":\"([A-Z_]+)\"");

    private final ClusterView cluster;
    private final Forwarder forwarder;

    public ClusterRoutes(ClusterView cluster, Forwarder forwarder) {
        this.cluster = cluster;
        this.forwarder = forwarder;
    }

    public void cluster(Context ctx) {
        QueryParams.of(ctx.queryParamMap(), Set.of());
        ClusterState state = cluster.state();
        Map<Instance, CompletableFuture<String>> states = new HashMap<>();
        for (ClusterState.Member m : state.instances()) {
            if (!m.instance().equals(state.self())) {
                states.put(m.instance(), forwarder
                        .send(m.instance(), PeerRequest.get(INTERNAL_STATE_PATH), STATE_TIMEOUT)
                        .thenApply(r -> parseState(r.status(), r.body()))
                        .exceptionally(e -> "UNREACHABLE"));
            }
        }
        ctx.future(() -> CompletableFuture.allOf(states.values().toArray(CompletableFuture[]::new))
                .thenAccept(ignored -> Responses.json(ctx, 200, render(state, states))));
    }

    public void internalState(Context ctx) {
        Responses.json(ctx, 200, ("{\"state\":\"" + cluster.state().selfState() + "\"}")
                .getBytes(StandardCharsets.UTF_8));
    }

    private static String parseState(int status, byte[] body) {
        Matcher m = STATE.matcher(new String(body, StandardCharsets.UTF_8));
        return status == 200 && m.find() ? m.group(1) : "UNREACHABLE";
    }

    static byte[] render(ClusterState state, Map<Instance, CompletableFuture<String>> otherStates) {
        JsonBytes out = new JsonBytes(1024);
        out.raw((byte) '{').name("self").string(state.self().hostPort()).comma();
        out.name("instances").raw((byte) '[');
        boolean first = true;
        for (ClusterState.Member m : state.instances()) {
            if (!first) {
                out.comma();
            }
            first = false;
            String memberState = m.instance().equals(state.self()) ? state.selfState()
                    : otherStates.get(m.instance()).join();
            out.raw((byte) '{').name("url").string("http://" + m.instance().hostPort()).comma();
            out.name("state").string(memberState).comma();
            out.name("active");
            partitions(out, m.active());
            out.comma().name("standby");
            partitions(out, m.standby());
            out.raw((byte) '}');
        }
        out.raw((byte) ']').comma().name("lag").raw((byte) '{');
        first = true;
        for (Map.Entry<String, Map<Integer, Long>> store : state.lag().entrySet()) {
            if (!first) {
                out.comma();
            }
            first = false;
            out.string(store.getKey()).raw((byte) ':').raw((byte) '{');
            boolean firstPartition = true;
            for (Map.Entry<Integer, Long> p : store.getValue().entrySet()) {
                if (!firstPartition) {
                    out.comma();
                }
                firstPartition = false;
                out.string(Integer.toString(p.getKey())).raw((byte) ':').number(p.getValue());
            }
            out.raw((byte) '}');
        }
        out.raw((byte) '}').comma().name("caughtUp").bool(state.caughtUp()).raw((byte) '}');
        return out.toByteArray();
    }

    private static void partitions(JsonBytes out, Map<String, List<Integer>> byStore) {
        out.raw((byte) '{');
        boolean first = true;
        for (Map.Entry<String, List<Integer>> e : byStore.entrySet()) {
            if (!first) {
                out.comma();
            }
            first = false;
            out.string(e.getKey()).raw((byte) ':').raw((byte) '[');
            for (int i = 0; i < e.getValue().size(); i++) {
                if (i > 0) {
                    out.comma();
                }
                out.number(e.getValue().get(i));
            }
            out.raw((byte) ']');
        }
        out.raw((byte) '}');
    }
}
