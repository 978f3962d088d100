package io.catalogviews.views.product;

import io.catalogviews.events.Product;
import io.catalogviews.events.codec.EventClassTrust;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Avro form of a {@link Product} kept beside its JSON, so patches and re-rendering start from the full product.
 *
 * <p>Written in Avro's single-object encoding ({@code C3 01}, the 8-byte fingerprint of the writer schema, the
 * binary body), so that a release whose {@code Product} schema has changed still reads what an older release
 * stored: the writer schema is found by its fingerprint ({@link StateSchemas}) and resolved to the current one.
 * States stored before the fingerprint was added are bare Avro binary of the first released schema; a bare body
 * never starts with {@code C3} (its first byte is the even zig-zag length of the id), so the two cannot be confused.
 */
public final class ProductState {

    static {
        // Avro 1.12 refuses to instantiate generated classes it was not told to trust.
        EventClassTrust.install();
    }

    private static final byte MARKER_0 = (byte) 0xC3;
    private static final byte MARKER_1 = 0x01;
    private static final int HEADER = 10;
    private static final long CURRENT = StateSchemas.fingerprint(Product.getClassSchema());
    private static final SpecificDatumWriter<Product> WRITER = new SpecificDatumWriter<>(Product.class);
    /** Readers by writer schema; Avro readers are not thread-safe, so each use is synchronized on its reader. */
    private static final Map<Schema, SpecificDatumReader<Product>> READERS = new ConcurrentHashMap<>();

    private ProductState() {
    }

    public static byte[] encode(Product p) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        out.write(MARKER_0);
        out.write(MARKER_1);
        out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(CURRENT).array());
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            synchronized (WRITER) {
                WRITER.write(p, encoder);
            }
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode product " + p.getId(), e);
        }
        return out.toByteArray();
    }

    /** Decodes a stored state written by any released schema. */
    public static Product decode(byte[] bytes) {
        return decode(bytes, StateSchemas.released());
    }

    /** Decodes a stored state whose writer schema is one of {@code schemas}. */
    public static Product decode(byte[] bytes, StateSchemas schemas) {
        boolean framed = bytes.length >= HEADER && bytes[0] == MARKER_0 && bytes[1] == MARKER_1;
        Schema writer;
        int offset;
        if (framed) {
            long fingerprint = ByteBuffer.wrap(bytes, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
            writer = schemas.byFingerprint(fingerprint).orElseThrow(() -> new IllegalStateException(
                    "stored product state was written with an unknown schema (fingerprint "
                            + Long.toHexString(fingerprint) + "); a release must keep every schema it stored with"));
            offset = HEADER;
        } else {
            writer = schemas.legacy();
            offset = 0;
        }
        SpecificDatumReader<Product> reader = READERS.computeIfAbsent(writer,
                w -> new SpecificDatumReader<>(w, Product.getClassSchema()));
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, offset, bytes.length - offset, null);
        try {
            synchronized (reader) {
                return reader.read(null, decoder);
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("stored product state is not readable (" + bytes.length + " bytes)", e);
        }
    }
}
