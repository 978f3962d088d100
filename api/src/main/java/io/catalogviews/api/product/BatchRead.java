package io.catalogviews.api.product;

import io.catalogviews.api.routing.FanOutRead;
import io.catalogviews.api.routing.LocalRead;
import io.catalogviews.api.routing.PeerRequest;
import io.catalogviews.api.routing.ReplicaCopy;
import io.catalogviews.views.json.JsonBytes;
import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.routing.KeyOwners;
import io.catalogviews.views.routing.Ownership;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The ids of a batch, read where they live: locally from the product view, from another instance through
 * {@value BatchRoutes#INTERNAL_BATCH_PATH} ({@link BatchFrames}), and from standbys while an owner cannot answer.
 */
record BatchRead(KeyOwners metadata, ProductQueries queries) implements FanOutRead<String, BatchRead.Part> {

    /** The answer for some ids: their stored JSON, null for a missing one, in the order of {@code ids}. */
    record Part(List<String> ids, List<byte[]> jsons) {
    }

    @Override
    public String view() {
        return ProductRoutes.VIEW;
    }

    @Override
    public Function<String, Ownership> owners() {
        return metadata::ownerOfProduct;
    }

    @Override
    public LocalRead<Part> local(List<String> ids) {
        return part(ids, LocalRead.ofAll(queries.getAll(ids)));
    }

    @Override
    public PeerRequest request(List<String> ids) {
        return PeerRequest.post(BatchRoutes.INTERNAL_BATCH_PATH, body(ids), "application/json");
    }

    @Override
    public Part decode(List<String> ids, byte[] body) {
        return new Part(ids, BatchFrames.decode(body, ids.size()));
    }

    @Override
    public boolean standbyMayAnswer() {
        return true;
    }

    @Override
    public ReplicaCopy<Part> anyCopy(List<String> ids) {
        ReplicaCopy<List<ProductLookup>> copy = ReplicaCopy.of(queries.getAllFromAnyReplica(ids));
        return new ReplicaCopy<>(part(ids, copy.read()), copy.lagRecords());
    }

    /** The batch names the owners it asked before itself in {@code X-Served-By}. */
    @Override
    public boolean ownAnswerLast() {
        return true;
    }

    private static LocalRead<Part> part(List<String> ids, LocalRead<List<ProductLookup>> read) {
        if (read instanceof LocalRead.Refused<List<ProductLookup>> refused) {
            return new LocalRead.Refused<>(refused.failure());
        }
        List<byte[]> jsons = new ArrayList<>(ids.size());
        for (ProductLookup lookup : ((LocalRead.Answered<List<ProductLookup>>) read).value()) {
            jsons.add(lookup instanceof ProductLookup.Found found ? found.json() : null);
        }
        return new LocalRead.Answered<>(new Part(ids, jsons));
    }

    private static byte[] body(List<String> ids) {
        JsonBytes out = new JsonBytes(ids.size() * 24 + 16);
        out.raw((byte) '{').name("ids").raw((byte) '[');
        for (int i = 0; i < ids.size(); i++) {
            if (i > 0) {
                out.comma();
            }
            out.string(ids.get(i));
        }
        out.raw((byte) ']').raw((byte) '}');
        return out.toByteArray();
    }
}
