package io.catalogviews.views.product;

import io.catalogviews.events.Product;
import io.catalogviews.events.codec.EventClassTrust;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The Avro binary form of a {@link Product} kept beside its JSON, so patches and re-rendering start from
 * the full product. Written with the current schema of this release; a schema change must migrate rows.
 */
public final class ProductState {

    static {
        // Avro 1.12 refuses to instantiate generated classes it was not told to trust.
        EventClassTrust.install();
    }

    private static final SpecificDatumWriter<Product> WRITER = new SpecificDatumWriter<>(Product.class);
    private static final SpecificDatumReader<Product> READER = new SpecificDatumReader<>(Product.class);

    private ProductState() {
    }

    public static byte[] encode(Product p) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
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

    public static Product decode(byte[] bytes) {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, null);
        try {
            synchronized (READER) {
                return READER.read(null, decoder);
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("stored product state is not readable (" + bytes.length + " bytes)", e);
        }
    }
}
