package io.catalogviews.api.testing;

import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
import io.catalogviews.views.routing.Ownership;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Owners of a one-partition instance: every product, hence every listing, lives on {@code self}. */
public record OwnedHere(Instance self) implements KeyOwners {

    @Override
    public Ownership ownerOfProduct(String productId) {
        return new Ownership(0, Optional.of(self), List.of());
    }

    @Override
    public Map<Integer, Instance> activeOwners(String storeName) {
        return Map.of(0, self);
    }

    @Override
    public int partitions() {
        return 1;
    }
}
