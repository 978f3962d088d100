package io.catalogviews.broker;

import java.util.concurrent.CompletableFuture;

import org.apache.kafka.image.MetadataDelta;
import org.apache.kafka.image.MetadataImage;
import org.apache.kafka.image.loader.LoaderManifest;
import org.apache.kafka.image.publisher.MetadataPublisher;
import org.apache.kafka.metadata.BrokerRegistration;

/**
 * Completes once the metadata shows no unfenced registration of one broker: either none at all (a new
 * storage, or a broker that never registered) or a fenced one (a controlled shutdown, or the controller
 * expired the session of an incarnation that stopped uncleanly). Kafka's metadata loader publishes to a
 * newly installed publisher only after it has caught up with the metadata log, so the first image seen here
 * is the log's state, never an empty start.
 */
final class PreviousIncarnationWatch implements MetadataPublisher {

    private final int brokerId;
    private final CompletableFuture<Void> fencedOrAbsent = new CompletableFuture<>();
    private volatile String lastSeen = "not yet seen";

    PreviousIncarnationWatch(int brokerId) {
        this.brokerId = brokerId;
    }

    CompletableFuture<Void> fencedOrAbsent() {
        return fencedOrAbsent;
    }

    /** The registration seen last, for a timeout message. */
    String lastSeen() {
        return lastSeen;
    }

    @Override
    public String name() {
        return "PreviousIncarnationWatch(broker " + brokerId + ")";
    }

    @Override
    public void onMetadataUpdate(MetadataDelta delta, MetadataImage image, LoaderManifest manifest) {
        BrokerRegistration registration = image.cluster().broker(brokerId);
        if (registration == null) {
            lastSeen = "not registered";
            fencedOrAbsent.complete(null);
        } else {
            lastSeen = "incarnation " + registration.incarnationId() + ", broker epoch " + registration.epoch()
                    + (registration.fenced() ? ", fenced" : ", unfenced");
            if (registration.fenced()) {
                fencedOrAbsent.complete(null);
            }
        }
    }
}
