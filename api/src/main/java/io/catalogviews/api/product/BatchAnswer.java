package io.catalogviews.api.product;

import io.catalogviews.views.json.JsonBytes;

import java.util.List;
import java.util.Map;

/** Renders {@code {"products":[...],"missing":[...]}} around stored JSON bytes, in request order. */
final class BatchAnswer {

    private BatchAnswer() {
    }

    static byte[] render(List<String> ids, Map<String, byte[]> found) {
        int size = 32;
        for (byte[] json : found.values()) {
            size += json.length + 1;
        }
        JsonBytes out = new JsonBytes(size);
        out.raw((byte) '{').name("products").raw((byte) '[');
        boolean first = true;
        for (String id : ids) {
            byte[] json = found.get(id);
            if (json != null) {
                if (!first) {
                    out.comma();
                }
                first = false;
                out.raw(json);
            }
        }
        out.raw((byte) ']').comma().name("missing").raw((byte) '[');
        first = true;
        for (String id : ids) {
            if (!found.containsKey(id)) {
                if (!first) {
                    out.comma();
                }
                first = false;
                out.string(id);
            }
        }
        out.raw((byte) ']').raw((byte) '}');
        return out.toByteArray();
    }
}
